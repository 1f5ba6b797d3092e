import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { promptsFolder } from './helpers/batch-folders';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

const png = await sharp({ create: { width: 16, height: 9, channels: 3, background: '#a47' } })
  .png()
  .toBuffer();

describe("an image's place in the list", () => {
  it('is where library.ids has it, in every order and filter, and null where the list lacks it', async () => {
    const services = await startServices();
    const root = (await call(services, 'settings.get')).libraryDir as string;
    // Two batches made in the same second (the order's ties), prompts that differ only in case.
    const made = [
      ['Morning', 1_790_000_100, ['a Teapot', 'a teapot', 'a cup', 'B saucer']],
      ['Noon', 1_790_000_100, ['a teapot', 'a jug', 'A TEAPOT']],
      ['Evening', 1_790_000_200, ['a cup', 'a lid', 'z spoon', 'a teapot']],
    ] as const;
    for (const [name, at, prompts] of made)
      cpSync(
        promptsFolder(mkdtempSync(join(tmpdir(), 'made-')), name, [...prompts], png, at),
        join(root, name),
        {
          recursive: true,
        },
      );
    await waitUntil(
      () => call(services, 'library.overview'),
      (o: any) => o.images === 11,
    );
    const all: string[] = await call(services, 'library.ids', {});
    await call(services, 'library.mark', { ids: [all[3]!, all[9]!], stars: 4 });
    await call(services, 'library.mark', { ids: [all[5]!], stars: 2 });
    await call(services, 'library.mark', { ids: [all[3]!, all[6]!], mark: 'picked' });

    const filters = [
      {},
      { search: 'teapot' },
      { review: 'picked' },
      { minStars: 2 },
      { batchId: 'imgbatch_Noon' },
    ];
    let checked = 0;
    for (const sort of ['newest', 'oldest', 'stars', 'prompt'] as const)
      for (const f of filters) {
        const filter = { ...f, sort };
        const ids: string[] = await call(services, 'library.ids', filter);
        for (const [i, id] of ids.entries()) {
          expect(
            await call(services, 'library.position', { ...filter, id }),
            `${JSON.stringify(filter)} ${id}`,
          ).toEqual({
            index: i,
          });
          checked++;
        }
        const outside = all.find((id) => !ids.includes(id));
        if (outside)
          expect(await call(services, 'library.position', { ...filter, id: outside })).toEqual({
            index: null,
          });
      }
    expect(checked).toBeGreaterThan(60);
    expect(await call(services, 'library.position', { id: 'No such batch/images/row-1.png' })).toEqual({
      index: null,
    });
    expect(await call(services, 'library.position', { id: 'not an id' })).toEqual({ index: null });
  });

  it('moves down by the images of a batch that arrives above it', async () => {
    const services = await startServices();
    const root = (await call(services, 'settings.get')).libraryDir as string;
    cpSync(
      promptsFolder(mkdtempSync(join(tmpdir(), 'made-')), 'First', ['a', 'b', 'c'], png, 1_790_000_000),
      join(root, 'First'),
      {
        recursive: true,
      },
    );
    await waitUntil(
      () => call(services, 'library.overview'),
      (o: any) => o.images === 3,
    );
    const [, second] = (await call(services, 'library.ids', {})) as string[];
    expect(await call(services, 'library.position', { id: second })).toEqual({ index: 1 });
    // A colleague's newer batch, arriving through the shared folder.
    cpSync(
      promptsFolder(mkdtempSync(join(tmpdir(), 'made-')), 'Later', ['d', 'e', 'f', 'g'], png, 1_790_000_500),
      join(root, 'Later'),
      { recursive: true },
    );
    await waitUntil(
      () => call(services, 'library.overview'),
      (o: any) => o.images === 7,
    );
    expect(await call(services, 'library.position', { id: second })).toEqual({ index: 5 });
    expect(await call(services, 'library.position', { id: second, sort: 'oldest' })).toEqual({ index: 1 });
  });
});
