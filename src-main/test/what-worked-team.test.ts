import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCatalog } from './test-catalog';

const TEMPLATE = 'A {subject} on {surface}';

/** A batch folder whose draft made its prompts from a template, as the studio writes one. */
function partedFolder(root: string, name: string, rows: { subject: string; surface: string }[]): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'images'), { recursive: true });
  const prompt = (r: { subject: string; surface: string }) => `A ${r.subject} on ${r.surface}`;
  const images = rows.map((r, i) => {
    writeFileSync(join(dir, 'images', `row-${i + 1}.png`), 'png');
    return {
      customId: `row-${i + 1}`,
      file: `images/row-${i + 1}.png`,
      prompt: prompt(r),
      rowIndex: i,
      parts: r,
    };
  });
  writeFileSync(
    join(dir, 'batch.json'),
    JSON.stringify({
      batch: { id: `imgbatch_${name}`, task_name: name, model: 'm', created_at: 1_790_000_000 },
      draft: {
        model: 'm',
        items: rows.map((r) => ({
          prompt: prompt(r),
          referenceIds: [],
          parts: { template: TEMPLATE, values: r, source: 'template' },
        })),
      },
      images,
    }),
  );
  return dir;
}

/** One person's marks file in a folder, as their studio writes it. */
function personMarks(dir: string, id: string, images: Record<string, { mark?: string; stars?: number }>) {
  mkdirSync(join(dir, 'review'), { recursive: true });
  writeFileSync(
    join(dir, 'review', `${id}.json`),
    JSON.stringify({
      format: 'batch-image-studio.review/2',
      person: { id, name: id },
      images: Object.fromEntries(
        Object.entries(images).map(([file, e]) => [
          file,
          { mark: e.mark ?? null, stars: e.stars ?? 0, seq: 1 },
        ]),
      ),
    }),
  );
}

describe('What worked over a team’s marks', () => {
  it('counts this person’s marks, everyone’s, or agreement only, and reads folders without parts', async () => {
    const root = mkdtempSync(join(tmpdir(), 'what-worked-team-'));
    const dir = partedFolder(root, 'vessels', [
      { subject: 'cat', surface: 'oak' },
      { subject: 'cat', surface: 'slate' },
      { subject: 'dog', surface: 'oak' },
      { subject: 'dog', surface: 'slate' },
    ]);
    const [cat1, cat2, dog1, dog2] = [1, 2, 3, 4].map((n) => `images/row-${n}.png`);
    personMarks(dir, 'alice', {
      [cat1!]: { mark: 'picked', stars: 4 },
      [cat2!]: { mark: 'picked' },
      [dog1!]: { mark: 'rejected' },
    });
    personMarks(dir, 'bob', {
      [cat1!]: { mark: 'picked', stars: 2 },
      [cat2!]: { mark: 'rejected' },
      [dog2!]: { mark: 'picked' },
    });
    // Before parts existed, and with parts this version cannot read: both stay readable, unparted.
    const old = join(root, 'old');
    mkdirSync(join(old, 'images'), { recursive: true });
    writeFileSync(join(old, 'images', 'a.png'), 'png');
    writeFileSync(
      join(old, 'batch.json'),
      JSON.stringify({
        batch: { id: 'imgbatch_old', task_name: 'old', model: 'm', created_at: 1 },
        draft: { items: [{ prompt: 'A cat', referenceIds: [], parts: 'garbled' }] },
        images: [
          { customId: 'a', file: 'images/a.png', prompt: 'A cat', rowIndex: 0, parts: { subject: 7 } },
        ],
      }),
    );

    const catalog = testCatalog(
      () => root,
      undefined,
      () => ({ id: 'alice', name: 'alice' }),
    );
    await catalog.sync();
    const counts = async (marksBy: 'mine' | 'everyone' | 'agreement') => {
      const result = await catalog.whatWorked({ by: ['subject'], marksBy });
      return Object.fromEntries(
        result.rows.map((r) => [
          r.values.subject,
          [r.images, r.picked, r.rejected, r.unrated, r.starred, r.meanStars],
        ]),
      );
    };
    // [images, picked, rejected, unrated, starred, mean stars]
    expect(await counts('mine')).toEqual({
      cat: [2, 2, 0, 0, 1, 4],
      dog: [2, 0, 1, 1, 0, null],
      '': [1, 0, 0, 1, 0, null],
    });
    // Everyone: cat2 is picked by Alice and rejected by Bob, so it counts as both.
    expect(await counts('everyone')).toEqual({
      cat: [2, 2, 1, 0, 1, 3],
      dog: [2, 1, 1, 0, 0, null],
      '': [1, 0, 0, 1, 0, null],
    });
    // Agreement, as the Library's "agree": only cat1, picked by both, counts. cat2's split marks count
    // for neither, nor do marks only one person set (dog1, dog2), which are not unrated either.
    expect(await counts('agreement')).toEqual({
      cat: [2, 1, 0, 0, 1, 3],
      dog: [2, 0, 0, 0, 0, null],
      '': [1, 0, 0, 1, 0, null],
    });

    const all = await catalog.whatWorked({ by: ['surface', 'subject'] });
    expect(all).toMatchObject({ images: 5, unparted: 1, variables: ['subject', 'surface', 'model'] });
    expect(all.rows[0]!.values).toEqual({ surface: 'oak', subject: 'cat' });

    // The same rows open in the Library: the parts filter with the team's review filter.
    expect(
      (await catalog.ids({ parts: { subject: 'cat' }, whose: 'anyone', review: 'picked' })).sort(),
    ).toEqual([`vessels/${cat1}`, `vessels/${cat2}`]);
    expect(await catalog.ids({ parts: { subject: '' } })).toEqual(['old/images/a.png']);
    expect(
      await catalog.ids({ parts: { subject: 'cat' }, whose: 'anyone', agreement: 'agree', review: 'picked' }),
    ).toEqual([`vessels/${cat1}`]);
    catalog.close();
  });
});
