import fs, { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

// A ZIP download's images reach the disk once each: fsynced as they are extracted (under their
// temporary names), and not again at the publish, where a second fsync of a file renamed since
// costs a journal commit per image. The publish still flushes their folder after the renames, and
// every image and folder is on disk before the batch folder's name is in the library.

const original = fs.fsync;
afterEach(() => {
  fs.fsync = original;
});

type Flush = { ino: number; path: string; names?: string[]; published: boolean };

describe('a ZIP download on disk', () => {
  it('flushes each image once, then its folder, all before the folder is in the library', async () => {
    const services = await startServices({ sandbox: { config: { zipDescriptors: true } } });
    await call(services, 'settings.update', { autoDownload: false });
    const prompts = Array.from({ length: 5 }, (_, i) => `a glazed bowl number ${i + 1}`);
    const { batch } = await call(services, 'batches.submit', {
      draft: promptsDraft('durable-zip', 'Durable bowls', prompts, 'bowl-'),
    });
    await waitUntil(
      () => call(services, 'batches.get', { id: batch.id }),
      (b) => b.status === 'completed',
      60_000,
    );
    const library = services.settings.get().libraryDir;
    // Published: a batch folder with its record is in the library (its name is durable only after).
    const published = () =>
      existsSync(library) &&
      readdirSync(library).some((n) => !n.startsWith('.') && existsSync(join(library, n, 'batch.json')));
    const flushes: Flush[] = [];
    fs.fsync = ((fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => {
      const stat = fs.fstatSync(fd);
      const path = readlinkSync(`/proc/self/fd/${fd}`);
      flushes.push({
        ino: stat.ino,
        path,
        names: stat.isDirectory() ? readdirSync(path) : undefined,
        published: published(),
      });
      return original(fd, callback);
    }) as typeof fs.fsync;

    await call(services, 'batches.download', { id: batch.id });
    const done = await waitUntil(
      () => call(services, 'batches.get', { id: batch.id }),
      (b) => b.download.state === 'done' || b.download.state === 'failed',
      60_000,
    );
    fs.fsync = original;
    expect(done.download.state).toBe('done');
    expect(done.download.source).toBe('zip');

    const images = join(library, done.download.folder!, 'images');
    const files = readdirSync(images);
    expect(files).toHaveLength(prompts.length);
    for (const file of files) {
      const ino = fs.statSync(join(images, file)).ino;
      const own = flushes.filter((f) => f.ino === ino);
      // Once, under the name it was extracted to, and before the folder was published.
      expect(own, file).toHaveLength(1);
      expect(own[0]!.path, file).toMatch(/\.part$/);
      expect(own[0]!.published, file).toBe(false);
    }
    // The images folder, flushed in staging once it held every image under its final name.
    const folderFlush = flushes.findLast((f) => f.ino === fs.statSync(images).ino);
    expect(folderFlush?.names?.sort()).toEqual([...files].sort());
    expect(folderFlush?.published).toBe(false);
    // And the library's own entry for the folder, once it was there.
    expect(flushes.some((f) => f.path === library && f.published)).toBe(true);
  });
});
