import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runUnderKill } from './helpers/killed-runner';
import { describe, expect, it } from 'vitest';
import { LibraryCatalog } from '../services/library/catalog/library-catalog';

/**
 * A kill at every rename of a culling session's marks writes, as a power cut or a task manager
 * would end the studio: every mark the person was shown as set is still on disk afterwards, the
 * person's file is whole, and marks from a sync tool's conflict copy (folded in and removed by the
 * first write) are never lost, whichever step the kill came at.
 */
const PERSON = 'aaaaaaaaaaaa';
const MARKS = 6;
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'marks-kill-'));
  const dir = join(root, 'Mugs');
  mkdirSync(join(dir, 'images'), { recursive: true });
  mkdirSync(join(dir, 'review'));
  const images = ['a', 'b', 'c', 'd'].map((name, i) => {
    writeFileSync(join(dir, 'images', `${name}.png`), png);
    return { customId: name, file: `images/${name}.png`, prompt: `a ${name}`, rowIndex: i };
  });
  writeFileSync(
    join(dir, 'batch.json'),
    JSON.stringify({ batch: { id: 'imgbatch_k', created_at: 1 }, images }),
  );
  // A conflict copy of the person's own file, from a sync tool: its one mark must survive.
  writeFileSync(
    join(dir, 'review', `${PERSON}.sync-conflict-20261127-101112-ABCDEFG.json`),
    JSON.stringify({
      format: 'batch-image-studio.review/2',
      person: { id: PERSON, name: 'Runner' },
      images: { 'images/d.png': { mark: 'alternative', stars: 3, seq: 1 } },
    }),
  );
  return root;
}

async function run(root: string, killAt: number): Promise<string[]> {
  const { lines } = await runUnderKill(
    'src-main/test/helpers/marks-runner.ts',
    ['--root', root, '--person', PERSON, '--marks', String(MARKS)],
    killAt,
  );
  return lines;
}

const markNumber = (n: number) => ({ mark: n % 2 ? 'picked' : 'rejected', stars: n % 6 });

describe('a kill at every rename of a marks write', () => {
  it('loses no acknowledged mark and no mark of a conflict copy', { timeout: 300_000 }, async () => {
    const clean = fixture();
    const lines = await run(clean, 0);
    const renames = Number(lines.find((l) => l.startsWith('renames '))?.split(' ')[1]);
    expect(renames).toBeGreaterThanOrEqual(MARKS);
    for (let killAt = 1; killAt <= renames; killAt++) {
      const root = fixture();
      const said = await run(root, killAt);
      expect(said.at(-1), `kill at rename ${killAt}`).toMatch(/^killed after rename/);
      const acknowledged = said.filter((l) => l.startsWith('marked ')).map((l) => Number(l.split(' ')[1]));
      // What a fresh studio reads back: the oldest-first order is the runner's.
      const catalog = new LibraryCatalog(
        () => root,
        undefined,
        () => ({ id: PERSON, name: 'Runner' }),
      );
      const items = (await catalog.query({ sort: 'oldest' })).items;
      expect((await catalog.overview()).problems, `kill at rename ${killAt}`).toEqual([]);
      items.forEach((image, i) => {
        const mine = acknowledged.filter((n) => n % items.length === i);
        const inFlight = acknowledged.length < MARKS && acknowledged.length % items.length === i;
        const allowed = [
          mine.length
            ? markNumber(mine.at(-1)!)
            : i === 3
              ? { mark: 'alternative', stars: 3 }
              : { mark: null, stars: 0 },
          ...(inFlight ? [markNumber(acknowledged.length)] : []),
        ];
        expect(allowed, `kill at rename ${killAt}, image ${i}`).toContainEqual({
          mark: image.mark,
          stars: image.stars,
        });
      });
      expect(readdirSync(join(root, 'Mugs', 'review')).filter((n) => !n.startsWith(PERSON))).toEqual([]);
      catalog.close();
    }
  });
});
