import { strToU8, unzipSync, zipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src-shared/i18n/en';
import { zhCN } from '../../src-shared/i18n/zh-CN';
import { StudioError } from '../../src-shared/studio-error';
import { draftToCsv, MAX_ROWS, readTable } from '../services/drafts/table-import';
import { saveAs } from './helpers/table-encodings';

/** Workbooks written once by ExcelJS 4.4, as a spreadsheet program saves them. */
const workbook = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name));

describe('reading prompt tables', () => {
  it('reads CSV with a header, quotes, a BOM and Chinese', async () => {
    const table = await readTable(
      'p.csv',
      Buffer.from('\uFEFFcustom_id,prompt,output_count\na,"Mug, glazed",2\nb,一只青花瓷杯,1\n'),
    );
    expect(table).toMatchObject({
      format: 'csv',
      hasHeader: true,
      columns: ['custom_id', 'prompt', 'output_count'],
    });
    expect(table.rows).toEqual([
      ['a', 'Mug, glazed', '2'],
      ['b', '一只青花瓷杯', '1'],
    ]);
  });

  it('reads TSV and headerless lists', async () => {
    expect((await readTable('p.tsv', Buffer.from('one\t2\ntwo\t1\n'))).rows).toEqual([
      ['one', '2'],
      ['two', '1'],
    ]);
    const text = await readTable('p.txt', Buffer.from('first prompt\n\nsecond prompt\r\n'));
    expect(text).toMatchObject({ format: 'txt', rows: [['first prompt'], ['second prompt']] });
  });

  it('reads XLSX, JSON and JSONL', async () => {
    // A sheet Prompts with rows: prompt | custom_id, A vase | v1, 一只碗 | b1.
    const fromXlsx = await readTable('p.xlsx', workbook('prompts.xlsx'));
    expect(fromXlsx).toMatchObject({
      format: 'xlsx',
      columns: ['prompt', 'custom_id'],
      rows: [
        ['A vase', 'v1'],
        ['一只碗', 'b1'],
      ],
    });

    const json = await readTable(
      'p.json',
      Buffer.from(JSON.stringify([{ prompt: 'x', output_count: 2 }, 'plain prompt'])),
    );
    expect(json.columns).toEqual(['prompt', 'output_count']);
    expect(json.rows).toEqual([
      ['x', '2'],
      ['plain prompt', ''],
    ]);
    const jsonl = await readTable('p.jsonl', Buffer.from('{"prompt":"a"}\n{"prompt":"b","custom_id":"B"}\n'));
    expect(jsonl.rows).toEqual([
      ['a', ''],
      ['b', 'B'],
    ]);
  });

  it('reads the first sheet of XLSX as the cells show: rich text, links, formulas, numbers, gaps', async () => {
    // Sheet Mixed (then a sheet Notes): custom_id | prompt | output_count; r1 | "A teapot" in two
    // styles | 2; r2 | "A lamp" linked | =1+2 saved as 3; an empty row; r3 | 一只杯 | (empty);
    // r4 | (empty) | 1.5.
    const table = await readTable('mixed.xlsx', workbook('mixed-cells.xlsx'));
    expect(table).toMatchObject({ format: 'xlsx', columns: ['custom_id', 'prompt', 'output_count'] });
    expect(table.rows).toEqual([
      ['r1', 'A teapot', '2'],
      ['r2', 'A lamp', '3'],
      ['r3', '一只杯', ''],
      ['r4', '', '1.5'],
    ]);
  });

  it('explains a broken file instead of crashing', async () => {
    await expect(readTable('p.json', Buffer.from('{nope'))).rejects.toMatchObject({
      code: 'STUDIO_IMPORT_UNREADABLE',
    });
    await expect(readTable('p.jsonl', Buffer.from('{"a":1}\nnot json'))).rejects.toMatchObject({
      code: 'STUDIO_IMPORT_UNREADABLE',
    });
    await expect(readTable('p.xlsx', Buffer.from('PK not really'))).rejects.toMatchObject({
      code: 'STUDIO_IMPORT_UNREADABLE',
      message: expect.stringContaining('not an Excel workbook'),
    });
    // A ZIP, as an .xlsx is, but without a workbook in it.
    const notWorkbook = Buffer.from(zipSync({ 'readme.txt': strToU8('hello') }));
    await expect(readTable('p.xlsx', notWorkbook)).rejects.toMatchObject({
      code: 'STUDIO_IMPORT_UNREADABLE',
      message: expect.stringContaining('not an Excel workbook'),
    });
    // The parser's own words ("Unexpected token", "position 1") never reach the message.
    const json = await readTable('p.json', Buffer.from('{nope')).catch((err: Error) => err);
    expect((json as Error).message).toMatch(/not valid JSON/);
    expect((json as Error).message).not.toMatch(/position|Unexpected|Expected/);
  });

  it('exports CSV that imports back the same', async () => {
    const csv = draftToCsv([
      { customId: 'a', prompt: 'Mug, "glazed"\nsecond line', outputCount: 2 },
      { customId: 'b', prompt: '一只杯', outputCount: 1 },
    ]);
    const back = await readTable('back.csv', Buffer.from(csv));
    expect(back.rows).toEqual([
      ['a', 'Mug, "glazed"\nsecond line', '2'],
      ['b', '一只杯', '1'],
    ]);
  });
});

/** The message a designer sees: the studio's own sentence, never a stack or the parser's words. */
async function refusal(name: string, data: Buffer): Promise<StudioError> {
  const err = await readTable(name, data).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `${name} was accepted`).toBeInstanceOf(StudioError);
  expect((err as StudioError).message).not.toMatch(/\n\s+at |Quoted field|Unexpected|TypeError/);
  return err as StudioError;
}

describe('files as spreadsheet programs save them', () => {
  const header = 'custom_id\tprompt\toutput_count';

  it('reads Excel’s “Unicode Text”: UTF-16 LE with a BOM, tab-separated, saved as .txt', async () => {
    const saved = saveAs(
      `${header}\r\na1\t一只青花瓷杯, glazed\t2\r\na2\t"A ""tall"" vase"\t1\r\n`,
      'utf-16le',
    );
    const table = await readTable('Unicode Text.txt', saved);
    expect(table).toMatchObject({ format: 'tsv', columns: ['custom_id', 'prompt', 'output_count'] });
    expect(table.rows).toEqual([
      ['a1', '一只青花瓷杯, glazed', '2'],
      ['a2', 'A "tall" vase', '1'],
    ]);
    const be = await readTable('p.csv', saveAs('prompt,n\n茶壶 🫖,1\n', 'utf-16be'));
    expect(be.rows).toEqual([['茶壶 🫖', '1']]);
  });

  it('reads GB18030 from Chinese Excel and WPS without mojibake', async () => {
    const saved = saveAs(
      '编号,提示词,数量\r\nb1,一只白瓷碗，放在木桌上,2\r\nb2,"水墨山水, 远山",1\r\n',
      'gb18030',
    );
    const table = await readTable('中文.csv', saved);
    expect(table.columns).toEqual(['编号', '提示词', '数量']);
    expect(table.rows).toEqual([
      ['b1', '一只白瓷碗，放在木桌上', '2'],
      ['b2', '水墨山水, 远山', '1'],
    ]);
  });

  it('reads semicolon CSV in Windows-1252 from European Excel, decimal commas kept', async () => {
    const saved = saveAs(
      'prompt;weight\r\nCrème brûlée, café au lait;1,5\r\nNaïve façade;2\r\n',
      'windows-1252',
    );
    expect((await readTable('europe.csv', saved)).rows).toEqual([
      ['Crème brûlée, café au lait', '1,5'],
      ['Naïve façade', '2'],
    ]);
  });

  it('reads CR-only line endings (old Mac, Numbers) in CSV, text and JSONL', async () => {
    expect((await readTable('p.txt', Buffer.from('first\rsecond\r'))).rows).toEqual([['first'], ['second']]);
    expect((await readTable('p.csv', Buffer.from('prompt,n\ra,1\rb,2\r'))).rows).toEqual([
      ['a', '1'],
      ['b', '2'],
    ]);
    expect((await readTable('p.jsonl', Buffer.from('{"prompt":"a"}\r{"prompt":"b"}'))).rows).toEqual([
      ['a'],
      ['b'],
    ]);
  });

  it('keeps multi-line cells, formulas, ragged rows and long cells; drops empty rows and end columns', async () => {
    const long = '瓷'.repeat(100_000);
    const csv = `prompt,custom_id,,\r\n"line one\nline two",x,,\r\n=SUM(A1:A2) as text\r\n${long},y,,\r\n,,,\r\n\r\n`;
    const table = await readTable('p.csv', Buffer.from(csv));
    // The header's empty end cells once made it a prompt row.
    expect(table.columns).toEqual(['prompt', 'custom_id']);
    expect(table.rows).toEqual([['line one\nline two', 'x'], ['=SUM(A1:A2) as text'], [long, 'y']]);
  });

  it('takes a first row as the header only when its cells are labels, not prompts that contain one', async () => {
    // "vivid" holds "id" and "country" holds "count": the first prompt became a column name.
    const table = await readTable('p.csv', Buffer.from('A vivid sunset,A country road\nA mug,A bowl\n'));
    expect(table.hasHeader).toBe(false);
    expect(table.rows[0]).toEqual(['A vivid sunset', 'A country road']);
    const labelled = await readTable('p.csv', Buffer.from('Prompt (EN),Custom ID\nA mug,m1\n'));
    expect(labelled.columns).toEqual(['Prompt (EN)', 'Custom ID']);
  });

  it('refuses a quote that is never closed, naming its line, instead of merging the rows after it', async () => {
    for (const csv of [
      'prompt,n\nA mug,1\n"A vase,2\nA bowl,3\n',
      'prompt,n\nA mug,1\n"Best" vase,2\nA bowl,"3"\n',
    ]) {
      const err = await refusal('p.csv', Buffer.from(csv));
      expect(err.code).toBe('STUDIO_IMPORT_UNCLOSED_QUOTE');
      expect(err.message).toMatch(/line 3/);
    }
  });

  it('refuses more rows than one import takes instead of cutting the rest silently', async () => {
    const rows = (n: number) =>
      Buffer.from(`prompt\n${Array.from({ length: n }, (_, i) => `p${i}`).join('\n')}\n`);
    expect((await readTable('p.csv', rows(MAX_ROWS))).rows).toHaveLength(MAX_ROWS);
    expect((await refusal('p.csv', rows(MAX_ROWS + 1))).code).toBe('STUDIO_IMPORT_TOO_MANY_ROWS');
    expect((await refusal('p.txt', rows(MAX_ROWS + 5))).code).toBe('STUDIO_IMPORT_TOO_MANY_ROWS');
  });

  it('refuses binary files and broken text with a message, and reads a workbook named .csv', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    expect((await refusal('image.csv', png)).code).toBe('STUDIO_IMPORT_NOT_TEXT');
    expect((await refusal('p.csv', Buffer.from('prompt\n一只杯\n\u0000\u0000\u0000'))).code).toBe(
      'STUDIO_IMPORT_NOT_TEXT',
    );
    // UTF-8 cut inside its last character: refused, not read as GB18030 mojibake.
    const cut = Buffer.from('prompt\n一只青花瓷杯\n', 'utf8').subarray(0, 14);
    expect((await refusal('p.csv', cut)).message).toMatch(/not UTF-8/);
    const zipped = Buffer.from(zipSync({ 'readme.txt': strToU8('hello') }));
    expect((await refusal('p.csv', zipped)).code).toBe('STUDIO_IMPORT_UNREADABLE');
    expect((await readTable('prompts.csv', workbook('prompts.xlsx'))).format).toBe('xlsx');
    const lone = await refusal('p.json', Buffer.from('[{"prompt":"a \\ud800 b"}]'));
    expect(lone.message).toMatch(/row 1 has a broken character/);
  });

  it('refuses a workbook whose text is damaged instead of importing U+FFFD in a prompt', async () => {
    // The reader does not check the ZIP's CRC: a damaged byte in a string became U+FFFD (fuzz, seed 1).
    const parts = unzipSync(workbook('prompts.xlsx'));
    const strings = Buffer.from(parts['xl/sharedStrings.xml']!);
    strings[strings.indexOf(Buffer.from('一只碗')) + 1] = 0xff;
    parts['xl/sharedStrings.xml'] = strings;
    const err = await refusal('p.xlsx', Buffer.from(zipSync(parts)));
    expect(err.message).toMatch(/row 2 has a broken character/);
  });

  it('explains every import refusal in English and Chinese', () => {
    for (const code of ['UNREADABLE', 'NOT_TEXT', 'UNCLOSED_QUOTE', 'TOO_MANY_ROWS']) {
      const key = `STUDIO_IMPORT_${code}` as keyof typeof en.errors;
      expect(en.errors[key], key).toMatch(/Nothing was imported/);
      expect(zhCN.errors[key], key).toMatch(/没有导入任何内容/);
    }
  });
});
