import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandTemplateRows, fillTemplate } from '../../src-shared/prompt-template';
import { WHAT_WORKED_MODEL } from '../../src-shared/what-worked';
import { soleMarksOnDisk } from './helpers/marks-on-disk';
import { call, startServices, submitAndDownload, waitUntil } from './helpers/studio-fixture';

const MODELS = ['imgvendor-3.1-flash-image', 'imgvendor-3-pro-image'];
const TEMPLATE = 'A {subject} on {surface}, {light}';
const LISTS = {
  subject: ['mug', 'bowl', 'vase', 'jug'],
  surface: ['oak', 'slate', 'marble'],
  light: ['soft light', 'harsh light'],
};

/** One image as the folders on disk say it is: its parts from batch.json, its marks from the review file. */
interface OnDisk {
  id: string;
  model: string;
  prompt: string;
  parts: Record<string, string> | undefined;
  mark: string | null;
  stars: number;
}

function imagesOnDisk(libraryDir: string, folders: string[]): OnDisk[] {
  return folders.flatMap((folder) => {
    const dir = join(libraryDir, folder);
    const record = JSON.parse(readFileSync(join(dir, 'batch.json'), 'utf8'));
    const marks = soleMarksOnDisk(dir);
    return record.images.map((i: any) => ({
      id: `${folder}/${i.file}`,
      model: record.batch.model,
      prompt: i.prompt,
      parts: i.parts,
      mark: marks[i.file]?.mark ?? null,
      stars: marks[i.file]?.stars ?? 0,
    }));
  });
}

describe('What worked', () => {
  it('keeps a template run’s parts to disk and the index, counts picks per value exactly, and builds the next round', async () => {
    const services = await startServices();
    const rows = expandTemplateRows(TEMPLATE, LISTS, 'cross');
    const draft = {
      id: `what-worked-${Date.now()}`,
      name: 'Vessels',
      model: MODELS[0],
      items: rows.map((r, i) => ({
        customId: `v${i + 1}`,
        prompt: r.prompt,
        outputCount: 1,
        referenceIds: [],
        parts: { template: TEMPLATE, values: r.values, source: 'template' },
      })),
      sharedReferenceIds: [],
      references: [],
      responseMime: 'image/png' as const,
    };
    const run = await call(services, 'batches.submitRun', {
      runId: 'run-what-worked-1',
      draft,
      models: MODELS,
    });
    const batches = await Promise.all(
      run.results.map((r: any) =>
        waitUntil(
          () => call(services, 'batches.get', { id: r.batch.id }),
          (b: any) => b.download.state === 'done',
          // Two cores shared by many: the sandbox's minutes pass in seconds, but not always in 30.
          180_000,
        ),
      ),
    );
    // Typed by hand, and a template row edited after: neither has parts the index can trust.
    const hand = await submitAndDownload(services, {
      ...draft,
      id: `typed-${Date.now()}`,
      name: 'Typed',
      items: [
        { customId: 't1', prompt: 'A cup on felt', outputCount: 1, referenceIds: [] },
        {
          customId: 't2',
          prompt: 'A cup on felt, edited',
          outputCount: 1,
          referenceIds: [],
          parts: { template: 'A {subject} on felt', values: { subject: 'cup' }, source: 'template' },
        },
      ],
    });
    const libraryDir = (await call(services, 'settings.get')).libraryDir as string;
    const folders = batches.map((b: any) => b.download.folder as string);

    // batch.json keeps each image's values, and its draft the template.
    const record = JSON.parse(readFileSync(join(libraryDir, folders[0]!, 'batch.json'), 'utf8'));
    expect(record.draft.items[0].parts).toEqual({
      template: TEMPLATE,
      values: rows[0]!.values,
      source: 'template',
    });
    const first = record.images.find((i: any) => i.rowIndex === 5);
    expect(first.parts).toEqual(rows[5]!.values);
    expect(fillTemplate(TEMPLATE, first.parts)).toBe(first.prompt);

    // The cull: every marble image picked (three stars on the first model), harsh light mostly
    // rejected, one soft oak mug picked, the rest left.
    const before = imagesOnDisk(libraryDir, folders);
    const by = (test: (i: OnDisk) => boolean) => before.filter(test).map((i) => i.id);
    const marble = by((i) => i.parts?.surface === 'marble');
    const harsh = by((i) => i.parts?.surface !== 'marble' && i.parts?.light === 'harsh light');
    const oakMug = by((i) => i.prompt === 'A mug on oak, soft light' && i.model === MODELS[0]);
    await call(services, 'library.mark', { ids: marble, mark: 'picked' });
    await call(services, 'library.mark', {
      ids: by((i) => i.parts?.surface === 'marble' && i.model === MODELS[0]),
      stars: 3,
    });
    await call(services, 'library.mark', { ids: harsh.slice(2), mark: 'rejected' });
    await call(services, 'library.mark', { ids: oakMug, mark: 'picked' });

    // The counts the folders on disk give, worked out here without the index.
    const disk = imagesOnDisk(libraryDir, folders);
    const expected = (name: string) =>
      LISTS[name as keyof typeof LISTS].map((value) => {
        const images = disk.filter((i) => i.parts?.[name] === value);
        const starred = images.filter((i) => i.stars > 0);
        return {
          values: { [name]: value },
          images: images.length,
          picked: images.filter((i) => i.mark === 'picked').length,
          rejected: images.filter((i) => i.mark === 'rejected').length,
          unrated: images.filter((i) => i.mark === null && i.stars === 0).length,
          starred: starred.length,
          meanStars: starred.length ? starred.reduce((s, i) => s + i.stars, 0) / starred.length : null,
        };
      });
    const runFilter = { batchId: undefined, search: undefined };
    const bySurface = await call(services, 'library.whatWorked', {
      ...runFilter,
      by: ['surface'],
      marksBy: 'mine',
    });
    expect(bySurface.images).toBe(50);
    expect(bySurface.unparted).toBe(2);
    expect(bySurface.variables).toEqual(['subject', 'surface', 'light', WHAT_WORKED_MODEL]);
    // Marble first; slate and the two typed images (no surface: '') have no pick: more images first.
    expect(bySurface.rows.map((r: any) => r.values.surface)).toEqual(['marble', 'oak', 'slate', '']);
    const strip = (r: any) => {
      const { pickInterval: _i, score: _s, ...rest } = r;
      return rest;
    };
    const counted = bySurface.rows.filter((r: any) => r.values.surface).map(strip);
    const bySurfaceName = (list: any[]) =>
      [...list].sort((x, y) => x.values.surface.localeCompare(y.values.surface));
    expect(bySurfaceName(counted)).toEqual(bySurfaceName(expected('surface')));
    expect(counted[0]).toMatchObject({ images: 16, picked: 16, starred: 8, meanStars: 3 });

    const byLight = await call(services, 'library.whatWorked', { by: ['light'], marksBy: 'mine' });
    expect(byLight.rows.map((r: any) => r.values.light)).toEqual(['soft light', 'harsh light', '']);
    expect(byLight.rows[1]).toMatchObject({ images: 24, picked: 8, rejected: 14, unrated: 2 });

    // One batch of the run alone; by subject and model, with everyone's marks (one person here).
    const firstBatch = await call(services, 'library.whatWorked', {
      batchId: batches[0].id,
      by: ['subject', WHAT_WORKED_MODEL],
    });
    expect(firstBatch.images).toBe(24);
    expect(firstBatch.rows).toHaveLength(4);
    expect(firstBatch.rows[0]).toMatchObject({
      values: { subject: 'mug', [WHAT_WORKED_MODEL]: MODELS[0] },
      picked: 3,
    });

    // A row opens exactly its images in the Library, through the same filter.
    const opened = await call(services, 'library.ids', { parts: { surface: 'marble' } });
    expect(new Set(opened)).toEqual(new Set(marble));
    const none = await call(services, 'library.ids', { parts: { surface: '' } });
    expect(new Set(none)).toEqual(new Set(await call(services, 'library.ids', { batchId: hand.id })));

    // The next round: marble crossed again with every subject and light its picks had.
    const crossed = await call(services, 'drafts.fromWhatWorked', {
      query: { by: ['surface'], marksBy: 'mine' },
      chosen: [{ surface: 'marble' }],
      mode: 'cross',
      outputCount: 2,
      withReferences: true,
    });
    expect(crossed.items.map((i: any) => i.prompt).sort()).toEqual(
      expandTemplateRows(TEMPLATE, { ...LISTS, surface: ['marble'] }, 'cross')
        .map((r) => r.prompt)
        .sort(),
    );
    expect(crossed.items.every((i: any) => i.outputCount === 2 && i.parts.template === TEMPLATE)).toBe(true);
    expect(MODELS).toContain(crossed.model);
    // Each row's references: its picked images (one a model), by lineage. References are kept by
    // content, so two images of the same bytes are one reference.
    const sources = new Map(crossed.references.map((r: any) => [r.id, r.sourceImageId]));
    for (const item of crossed.items) {
      const picked = disk.filter((i) => i.prompt === item.prompt && i.mark === 'picked').map((i) => i.id);
      expect(item.referenceIds.length).toBeGreaterThan(0);
      for (const id of item.referenceIds) expect(picked).toContain(sources.get(id));
    }
    expect((await call(services, 'drafts.get', { id: crossed.id })).items).toHaveLength(8);

    // The picked prompts kept as they were, on the model that won them: the second model's picks.
    const kept = await call(services, 'drafts.fromWhatWorked', {
      query: { by: [WHAT_WORKED_MODEL] },
      chosen: [{ [WHAT_WORKED_MODEL]: MODELS[1] }],
      mode: 'keep',
      outputCount: 1,
    });
    expect(kept.model).toBe(MODELS[1]);
    expect(kept.items.map((i: any) => i.prompt).sort()).toEqual(
      disk
        .filter((i) => i.model === MODELS[1] && i.mark === 'picked')
        .map((i) => i.prompt)
        .sort(),
    );
    expect(kept.items[0].parts.values).toEqual(disk.find((i) => i.prompt === kept.items[0].prompt)!.parts);
    expect(kept.references).toEqual([]);

    // Rows without a template cannot be crossed, and rows without picks make nothing: said in words.
    const refused = await services.dispatch('drafts.fromWhatWorked', {
      query: { by: ['surface'], marksBy: 'mine' },
      chosen: [{ surface: 'slate' }],
      mode: 'keep',
      outputCount: 1,
    });
    expect(!refused.ok && refused.error.code).toBe('STUDIO_WHAT_WORKED_NO_PICKS');
    // Typed by hand: a pick there cannot be crossed (no template), but is kept as it was.
    const typed = await call(services, 'library.ids', { batchId: hand.id });
    await call(services, 'library.mark', { ids: typed, mark: 'picked' });
    const typedQuery = { batchId: hand.id, by: [WHAT_WORKED_MODEL], marksBy: 'mine' };
    const noTemplate = await services.dispatch('drafts.fromWhatWorked', {
      query: typedQuery,
      chosen: [{ [WHAT_WORKED_MODEL]: MODELS[0] }],
      mode: 'cross',
      outputCount: 1,
    });
    expect(!noTemplate.ok && noTemplate.error.code).toBe('STUDIO_WHAT_WORKED_NO_TEMPLATE');
    const typedKept = await call(services, 'drafts.fromWhatWorked', {
      query: typedQuery,
      chosen: [{ [WHAT_WORKED_MODEL]: MODELS[0] }],
      mode: 'keep',
      outputCount: 4,
    });
    expect(typedKept.items.map((i: any) => [i.prompt, i.outputCount, i.parts])).toEqual([
      ['A cup on felt', 4, undefined],
      ['A cup on felt, edited', 4, undefined],
    ]);
  }, 300_000);
});
