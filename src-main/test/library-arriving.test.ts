import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, startServices, waitUntil, type TestServices } from './helpers/studio-fixture';

// Polling only, as on a share: the folder's images arriving are seen by looking, not by a watch.
process.env.STUDIO_LIBRARY_WATCH = 'poll';

type Problem = { folder: string; reason: string; missing?: number; total?: number };

/** A batch folder's record listing three images, as a sync tool may deliver it before them. */
function record(dir: string): void {
  mkdirSync(join(dir, 'images'), { recursive: true });
  const images = [1, 2, 3].map((n) => ({
    customId: `row-${n}`,
    file: `images/row-${n}.png`,
    prompt: `a synced teapot ${n}`,
    rowIndex: n - 1,
  }));
  writeFileSync(
    join(dir, 'batch.json'),
    JSON.stringify({
      batch: { id: 'imgbatch_synced', task_name: 'Synced', created_at: 1_790_000_000 },
      images,
    }),
  );
}

/** An image as Syncthing writes one: a temporary file, renamed into place once whole. */
function syncImage(dir: string, n: number): void {
  const temporary = join(dir, 'images', `.syncthing.row-${n}.png.tmp`);
  writeFileSync(temporary, 'png');
  renameSync(temporary, join(dir, 'images', `row-${n}.png`));
}

/** Waits until the studio has announced no change of its library for a few seconds. */
async function quiet(services: TestServices): Promise<void> {
  let since = Date.now();
  const stop = services.events.subscribe((event) => {
    if (event === 'library.changed') since = Date.now();
  });
  await waitUntil(
    () => Date.now() - since,
    (still) => still > 2_500,
  );
  stop();
}

describe('a batch folder arriving through a sync tool', () => {
  it('is shown as arriving, not broken, fills in as its images come, and its leftovers are never images or folders', async () => {
    const services = await startServices();
    const root = (await call(services, 'settings.get')).libraryDir as string;
    const dir = join(root, 'Synced teapots');
    record(dir);
    syncImage(dir, 1);
    // Still being written: a temporary for the second image. Beside it, conflict copies of an
    // image and of the record, and a whole conflict copy of the folder: none is an image, damage or a folder.
    writeFileSync(join(dir, 'images', '.syncthing.row-2.png.tmp'), 'pn');
    writeFileSync(join(dir, 'images', 'row-1.sync-conflict-20261127-051530-ABCDEF7.png'), 'png');
    writeFileSync(join(dir, 'batch.sync-conflict-20261127-051530-ABCDEF7.json'), '{"half');
    mkdirSync(join(root, "Synced teapots (Ana's conflicted copy 2026-11-27)"));

    const first = await call(services, 'library.overview');
    expect(first.problems as Problem[]).toEqual([
      expect.objectContaining({ folder: 'Synced teapots', reason: 'ARRIVING', missing: 2, total: 3 }),
    ]);
    expect(first.batches).toEqual([{ id: 'imgbatch_synced', taskName: 'Synced', images: 1 }]);
    const files = async () =>
      ((await call(services, 'library.query', { sort: 'oldest' })).items as { id: string }[]).map((i) =>
        i.id.replace('Synced teapots/', ''),
      );
    expect(await files()).toEqual(['images/row-1.png']);

    // The images come one by one, some time later: the studio has long stopped looking again
    // after its last change (hashing, the folders it saw come) when they do.
    await quiet(services);
    // The gallery, which never looks at the folders itself, fills in.
    syncImage(dir, 2);
    await waitUntil(files, (f) => f.length === 2, 10_000);
    syncImage(dir, 3);
    await waitUntil(files, (f) => f.length === 3, 10_000);
    expect(await files()).toEqual(['images/row-1.png', 'images/row-2.png', 'images/row-3.png']);
    // Whole: nothing to report any more.
    const done = await call(services, 'library.overview');
    expect(done.problems).toEqual([]);
    expect(done.images).toBe(3);
  });
});
