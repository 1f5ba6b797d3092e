import { strToU8, zipSync } from 'fflate';
import Papa from 'papaparse';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/studio-error';
import { seededRandom } from './helpers/seeded-random';
import { readTable, type ImportedTable } from '../services/drafts/table-import';
import { tableText } from '../services/drafts/table-text';
import { encodable, saveAs, type SavedEncoding } from './helpers/table-encodings';

/**
 * Prompt tables in every format and encoding the import reads, then damaged the ways files are:
 * bytes changed, inserted, removed, cut (inside a character or a quote), swapped for binary. The
 * import either reads a file into text that is really in it, or refuses it with the studio's own
 * message. FUZZ_SEED and FUZZ_CASES run more: FUZZ_SEED=7 FUZZ_CASES=20000 npx vitest run <this>.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_611);
const CASES = Number(process.env.FUZZ_CASES ?? 400);

const WORDS = [
  'A mug',
  'glazed',
  'a "tall" vase',
  'one, two',
  'semi;colon',
  'tab\there',
  'line\nbreak',
  'crlf\r\nbreak',
  '=SUM(A1:B2)',
  '+1',
  '一只青花瓷杯',
  '水墨山水，远山',
  '提示词',
  'Crème brûlée',
  'Naïve façade',
  '🫖 teapot',
  '  spaced  ',
  '',
];
const NO_BREAK_WORDS = WORDS.filter((w) => !/[\r\n\t]/.test(w) && w.trim() === w && w !== '');

type Format = 'csv' | 'csv;' | 'tsv' | 'txt' | 'json' | 'jsonl';
const FORMATS: Format[] = ['csv', 'csv;', 'tsv', 'txt', 'json', 'jsonl'];
const ENCODINGS: SavedEncoding[] = ['utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'gb18030', 'windows-1252'];
const BREAKS = ['\r\n', '\n', '\r'];

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const int = (random: Random, below: number) => Math.floor(random() * below);

interface Sample {
  name: string;
  bytes: Buffer;
  encoding: SavedEncoding;
  /** What a correct import reads back: the rows under the header. */
  rows: string[][];
}

/** A valid table, saved as a spreadsheet program would save it. */
function sample(random: Random): Sample {
  const format = pick(random, FORMATS);
  let encoding = pick(random, ENCODINGS);
  const words = format === 'txt' ? NO_BREAK_WORDS : WORDS;
  const cell = () =>
    Array.from({ length: 1 + int(random, 3) }, () => pick(random, words))
      .join(' ')
      .trim() || 'x';
  const rows = Array.from({ length: 1 + int(random, 12) }, (_, i) =>
    format === 'txt' ? [cell()] : [`r${i}`, cell(), String(1 + int(random, 4))],
  );
  if (!rows.flat().every((c) => encodable(c, encoding))) encoding = 'utf-8-bom';
  const newline = pick(random, BREAKS);
  const fields = ['custom_id', 'prompt', 'output_count'];
  let text: string;
  if (format === 'txt') text = rows.map((r) => r[0]).join(newline) + newline;
  else if (format === 'json')
    text = JSON.stringify(rows.map((r) => ({ custom_id: r[0], prompt: r[1], n: r[2] })));
  else if (format === 'jsonl')
    text = rows.map((r) => JSON.stringify({ custom_id: r[0], prompt: r[1], n: r[2] })).join(newline);
  else {
    const delimiter = format === 'tsv' ? '\t' : format === 'csv;' ? ';' : ',';
    text = Papa.unparse({ fields, data: rows }, { delimiter, newline, quotes: random() < 0.2 }) + newline;
  }
  const extension = format === 'csv;' ? 'csv' : format;
  return { name: `prompts.${extension}`, bytes: saveAs(text, encoding), encoding, rows };
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const WORKBOOK = readFileSync(join(import.meta.dirname, 'fixtures', 'prompts.xlsx'));

type Damage = { kind: string; bytes: Buffer; name?: string };

/** The sample's bytes damaged one way; `cut` keeps a prefix, which the oracle checks further. */
function damage(random: Random, s: Sample): Damage {
  const b = s.bytes;
  const at = () => int(random, b.length + 1);
  const noise = (n: number) => Buffer.from(Array.from({ length: n }, () => int(random, 256)));
  switch (int(random, 12)) {
    case 0: {
      const out = Buffer.from(b);
      for (let i = 1 + int(random, 4); i > 0 && out.length; i--)
        out[int(random, out.length)] = int(random, 256);
      return { kind: 'changed', bytes: out };
    }
    case 1: {
      const i = at();
      return {
        kind: 'inserted',
        bytes: Buffer.concat([b.subarray(0, i), noise(1 + int(random, 8)), b.subarray(i)]),
      };
    }
    case 2: {
      const i = at();
      return {
        kind: 'removed',
        bytes: Buffer.concat([b.subarray(0, i), b.subarray(i + 1 + int(random, 8))]),
      };
    }
    case 3:
      return { kind: 'cut', bytes: b.subarray(0, at()) };
    case 4:
      return { kind: 'binary', bytes: noise(int(random, 2048)) };
    case 5:
      return { kind: 'renamed zip', bytes: Buffer.from(zipSync({ 'a.txt': strToU8('prompt\nA mug\n') })) };
    case 6:
      return { kind: 'renamed png', bytes: Buffer.concat([PNG, noise(int(random, 512))]) };
    case 7:
      return { kind: 'empty or BOM only', bytes: saveAs('', pick(random, ENCODINGS)) };
    case 8: {
      const i = at();
      return {
        kind: 'zeros',
        bytes: Buffer.concat([b.subarray(0, i), Buffer.alloc(1 + int(random, 4)), b.subarray(i)]),
      };
    }
    case 9: {
      // Half of a UTF-16 pair, as the bytes of its encoding or as a JSON escape.
      const i = at() & ~1;
      const half =
        s.encoding === 'utf-16be'
          ? [0xd8, 0x3d]
          : s.encoding === 'utf-16le'
            ? [0x3d, 0xd8]
            : [...Buffer.from('\\ud83d')];
      return {
        kind: 'lone surrogate',
        bytes: Buffer.concat([b.subarray(0, i), Buffer.from(half), b.subarray(i)]),
      };
    }
    case 10: {
      const out = Buffer.from(WORKBOOK);
      for (let i = 1 + int(random, 3); i > 0; i--) out[int(random, out.length)] = int(random, 256);
      return { kind: 'damaged workbook', bytes: out, name: random() < 0.5 ? 'p.xlsx' : 'p.csv' };
    }
    default: {
      const i = s.encoding.startsWith('utf-16') ? at() & ~1 : at();
      const quote = Buffer.from(s.encoding.startsWith('utf-16') ? '"\0' : '"');
      return { kind: 'stray quote', bytes: Buffer.concat([b.subarray(0, i), quote, b.subarray(i)]) };
    }
  }
}

const PARSER_WORDS =
  /\n\s+at |Quoted field|Trailing quote|Unexpected|JSON at position|TypeError|RangeError|undefined|\[object/;

function expectCleanRefusal(err: unknown, what: string): void {
  expect(err, what).toBeInstanceOf(StudioError);
  const e = err as StudioError;
  expect(e.code, what).toMatch(/^STUDIO_IMPORT_[A-Z_]+$/);
  expect(e.message, what).not.toMatch(PARSER_WORDS);
}

/** What any accepted file must hold: whole characters, no replacement marks, no binary zeros. */
function expectPlainText(table: ImportedTable, what: string): void {
  for (const cell of [...table.columns, ...table.rows.flat()]) {
    expect(typeof cell, what).toBe('string');
    // eslint-disable-next-line no-control-regex -- a zero byte in a prompt is what this looks for
    expect(cell, what).not.toMatch(/[\uFFFD\u0000]|[\uD800-\uDFFF]/u);
  }
}

describe('table import fuzz', () => {
  it(
    `reads ${CASES} valid tables back exactly and refuses or reads damaged ones (seed ${SEED})`,
    { timeout: 120_000 },
    async () => {
      const random = seededRandom(SEED);
      for (let n = 0; n < CASES; n++) {
        const s = sample(random);
        const what = `seed ${SEED} case ${n} ${s.name} ${s.encoding}`;
        const valid = await readTable(s.name, s.bytes).catch((err: unknown) => {
          throw new Error(`${what} ${s.bytes.toString('base64')}: ${String(err)}`);
        });
        expect(valid.rows, what).toEqual(s.rows);

        const d = damage(random, s);
        const name = d.name ?? s.name;
        const where = `${what} ${d.kind} ${d.bytes.toString('base64').slice(0, 4000)}`;
        let table: ImportedTable;
        try {
          table = await readTable(name, d.bytes);
        } catch (err) {
          expectCleanRefusal(err, where);
          continue;
        }
        expectPlainText(table, where);
        // Chinese text whose bytes are mostly still there is never read in another encoding: that
        // would be mojibake. (A byte or two above ASCII, or accented Latin alone, says nothing of
        // its encoding: Windows-1252 and GBK files are read from such bytes, so those are left out.)
        const chinese = s.rows.flat().some((c) => /\p{Script=Han}/u.test(c));
        const high = d.bytes.subarray(3).filter((b) => b >= 0x80).length;
        if (
          ['changed', 'cut', 'stray quote'].includes(d.kind) &&
          chinese &&
          high >= 6 &&
          table.format !== 'xlsx'
        )
          expect(tableText(name, d.bytes).encoding, where).toBe(
            s.encoding === 'utf-8-bom' ? 'utf-8' : s.encoding,
          );
        if (d.kind === 'cut' && s.name.endsWith('.csv') && table.hasHeader) {
          // A cut file's rows are the original's, the last one perhaps cut short.
          table.rows.forEach((row, i) => {
            // A cut between CR and LF leaves the CR in the last cell.
            const last = i === table.rows.length - 1;
            row.forEach((cell, j) =>
              last
                ? expect(s.rows[i]![j]!.startsWith(cell.replace(/\r$/, '')), where).toBe(true)
                : expect(cell, where).toBe(s.rows[i]![j]),
            );
          });
        }
      }
    },
  );

  it('reads an enormous cell and an enormous row count, and refuses one row past the limit', async () => {
    const cell = '一只青花瓷杯 '.repeat(400_000);
    const big = await readTable('big.csv', saveAs(`prompt\r\n"${cell}"\r\n`, 'utf-16le'));
    expect(big.rows).toEqual([[cell]]);
    const many = Array.from({ length: 10_000 }, (_, i) => `r${i},"p${i}, ""q"""`).join('\n');
    expect((await readTable('many.csv', Buffer.from(`custom_id,prompt\n${many}\n`))).rows).toHaveLength(
      10_000,
    );
    const err = await readTable('more.csv', Buffer.from(`custom_id,prompt\n${many}\nlast,one\n`)).catch(
      (e: unknown) => e,
    );
    expectCleanRefusal(err, 'one row past the limit');
  });
});
