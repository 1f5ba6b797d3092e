import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillTemplate } from '../../src-shared/prompt-template';
import { WHAT_WORKED_MODEL, type WhatWorkedQuery } from '../../src-shared/what-worked';
import { testCatalog } from './helpers/test-catalog';

const TEMPLATE = 'A {subject} on {surface}';

/** A batch folder whose draft made its prompts from a template, as the studio writes one. */
function partedFolder(
  root: string,
  name: string,
  rows: Record<string, string>[],
  template = TEMPLATE,
  model = 'm',
): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'images'), { recursive: true });
  const images = rows.map((r, i) => {
    writeFileSync(join(dir, 'images', `row-${i + 1}.png`), 'png');
    return {
      customId: `row-${i + 1}`,
      file: `images/row-${i + 1}.png`,
      prompt: fillTemplate(template, r),
      rowIndex: i,
      parts: r,
    };
  });
  writeFileSync(
    join(dir, 'batch.json'),
    JSON.stringify({
      batch: { id: `imgbatch_${name}`, task_name: name, model, created_at: 1_790_000_000 },
      draft: {
        model,
        items: rows.map((r) => ({
          prompt: fillTemplate(template, r),
          referenceIds: [],
          parts: { template, values: r, source: 'template' },
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
    expect(all).toMatchObject({
      images: 5,
      unparted: 1,
      variables: ['subject', 'surface', WHAT_WORKED_MODEL],
    });
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

  it('counts in the mean stars everyone whose entry counts, as their marks are counted', async () => {
    const root = mkdtempSync(join(tmpdir(), 'what-worked-stars-'));
    const dir = partedFolder(root, 'stars', [
      { subject: 'cat', surface: 'oak' },
      { subject: 'cat', surface: 'oak' },
      { subject: 'cat', surface: 'oak' },
    ]);
    const [one, two, three] = [1, 2, 3].map((n) => `images/row-${n}.png`);
    // Bob alone starred the first; the second was starred before people had names, then Bob marked
    // it (so the earlier entry no longer counts, for stars as for marks); both starred the third.
    writeFileSync(
      join(dir, 'review.json'),
      JSON.stringify({ version: 1, images: { [two!]: { mark: 'picked', stars: 1 } } }),
    );
    personMarks(dir, 'bob', {
      [one!]: { stars: 5 },
      [two!]: { mark: 'rejected' },
      [three!]: { stars: 4 },
    });
    personMarks(dir, 'alice', { [three!]: { stars: 2 } });
    const catalog = testCatalog(
      () => root,
      undefined,
      () => ({ id: 'alice', name: 'alice' }),
    );
    await catalog.sync();
    const stars = async (marksBy: 'mine' | 'everyone' | 'agreement') => {
      const [row] = (await catalog.whatWorked({ by: ['subject'], marksBy })).rows;
      return [row!.starred, row!.meanStars];
    };
    // Each starred image at the mean of its counted stars: 5, and (2 + 4) / 2.
    expect(await stars('everyone')).toEqual([2, 4]);
    expect(await stars('agreement')).toEqual([2, 4]);
    // Alice's own: the earlier 1 star she sees on the second, her 2 on the third.
    expect(await stars('mine')).toEqual([2, 1.5]);
    // Alice's stars given in the studio count at once: the first is now (5 + 3) / 2.
    const first = (await catalog.ids({})).find((id) => id.endsWith(one!))!;
    await catalog.mark([first], { stars: 3 });
    expect(await stars('everyone')).toEqual([2, 3.5]);
    catalog.close();
  });

  it('keeps a template variable called model apart from the model the images were made on', async () => {
    const root = mkdtempSync(join(tmpdir(), 'what-worked-model-'));
    const rows = [
      { subject: 'cat', model: 'ink' },
      { subject: 'cat', model: 'oil' },
      { subject: 'dog', model: 'ink' },
    ];
    partedFolder(root, 'styles', rows, 'A {subject} in the style of {model}', 'imgvendor-3-pro-image');
    const catalog = testCatalog(() => root);
    await catalog.sync();
    const counts = async (by: string[]) =>
      (await catalog.whatWorked({ by })).rows.map((r) => [by.map((name) => r.values[name]), r.images]);
    const byVariable = await catalog.whatWorked({ by: ['model'] });
    expect(byVariable.variables).toEqual(['subject', 'model', WHAT_WORKED_MODEL]);
    expect(await counts(['model'])).toEqual([
      [['ink'], 2],
      [['oil'], 1],
    ]);
    expect(await counts([WHAT_WORKED_MODEL])).toEqual([[['imgvendor-3-pro-image'], 3]]);
    expect(await counts(['model', WHAT_WORKED_MODEL])).toEqual([
      [['ink', 'imgvendor-3-pro-image'], 2],
      [['oil', 'imgvendor-3-pro-image'], 1],
    ]);
    // A row by the variable opens its images through the parts filter, not the model's.
    expect((await catalog.ids({ parts: { model: 'ink' } })).length).toBe(2);
    catalog.close();
  });

  it('adds up the same whether a value comes first in its template, after one of many values, or past the sixth', async () => {
    const root = mkdtempSync(join(tmpdir(), 'what-worked-orders-'));
    // 300 images, each its own take (more values than grouping in the index's order allows).
    const subjects = ['cat', 'dog', 'owl'];
    const rows = Array.from({ length: 300 }, (_, i) => ({ take: `t${i}`, subject: subjects[i % 3]! }));
    const dir = partedFolder(root, 'takes', rows, 'Take {take}: a {subject}');
    const seven = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const far = partedFolder(
      root,
      'far',
      ['cat', 'owl'].map((subject) => ({ ...Object.fromEntries(seven.map((n) => [n, n])), subject })),
      `${seven.map((n) => `{${n}}`).join(' ')} {subject}`,
    );
    personMarks(
      dir,
      'alice',
      Object.fromEntries(
        rows.flatMap((_, i) => (i % 6 ? [] : [[`images/row-${i + 1}.png`, { mark: 'picked' }]])),
      ),
    );
    personMarks(far, 'alice', { 'images/row-2.png': { mark: 'picked', stars: 4 } });
    const catalog = testCatalog(
      () => root,
      undefined,
      () => ({ id: 'alice', name: 'alice' }),
    );
    await catalog.sync();
    const table = async (query: WhatWorkedQuery) =>
      (await catalog.whatWorked(query)).rows.map((r) => [
        Object.values(r.values).join('/'),
        r.images,
        r.picked,
        r.meanStars,
      ]);
    // Every sixth image picked: all of them cats (0, 6, 12...); the far folder's owl picked.
    expect(await table({ by: ['subject'], marksBy: 'mine' })).toEqual([
      ['cat', 101, 50, null],
      ['owl', 101, 1, 4],
      ['dog', 100, 0, null],
    ]);
    expect(
      await table({ by: ['subject', WHAT_WORKED_MODEL], marksBy: 'mine', batchId: 'imgbatch_far' }),
    ).toEqual([
      ['owl/m', 1, 1, 4],
      ['cat/m', 1, 0, null],
    ]);
    // A row an image: the best 200 sent, the rest counted, and all of them when asked for.
    const capped = await catalog.whatWorked({ by: ['g', 'take'] });
    expect([capped.rows.length, capped.more, capped.images]).toEqual([200, 101, 302]);
    expect(capped.rows[0]!.values).toEqual({ g: '', take: 't0' });
    const all = await catalog.whatWorked({ by: ['g', 'take'], limit: 1000 });
    expect([all.rows.length, all.more]).toEqual([301, 0]);
    expect(all.rows.slice(0, 200)).toEqual(capped.rows);
    catalog.close();
  });
});
