import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DirectWrites, laneBuffer } from '../services/zip/direct-write';
import { ingest, manifestOf, trickyImage, zipOf, type Entry } from './helpers/zip-by-hand';

// Whole inflated images are written past the page cache on local Linux file systems
// (direct-write.ts). What shows it from outside: the images are on disk, byte for byte, and none of
// their pages is in the cache after the ingest (fincore, util-linux).

const EXT4_OR_XFS = [0xef53, 0x58465342];
const localKind = process.platform === 'linux' && EXT4_OR_XFS.includes(statfsSync(tmpdir()).type >>> 0);
const fincore = spawnSync('fincore', ['--version']).status === 0;
const skipDirect = !localKind
  ? `the temporary folder is not on ext4 or XFS (${process.platform}), where the studio writes directly`
  : !fincore
    ? 'fincore (util-linux) is not installed'
    : false;

/** Bytes of the file held in the page cache. */
function cached(file: string): number {
  const run = spawnSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', file], {
    encoding: 'utf8',
  });
  // An answer, or the test fails: an empty one would read as nothing cached.
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout.trim()).toMatch(/^\d+$/);
  return Number(run.stdout.trim());
}

/** Images whose sizes meet a block's edge in every way: under one, exactly on one, one past, and a few MB. */
function archive(): { zip: Buffer; images: Map<string, Buffer> } {
  const images = new Map<string, Buffer>();
  for (const size of [1000, 4096, 4097, 65_536 * 3 + 17, 3_000_001])
    images.set(`s${size}`, trickyImage(size));
  const entries: Entry[] = [...images].map(([id, data], i) => ({
    name: `images/${id}.png`,
    data,
    deflate: true,
    ...(i % 2 ? { descriptor: 'signed32' as const } : {}),
  }));
  entries.push(manifestOf([...images.keys()]));
  return { zip: zipOf(entries), images };
}

describe('inflated images written past the page cache', () => {
  it.skipIf(skipDirect)('land on a local disk byte for byte and leave nothing in the cache', async (ctx) => {
    if (skipDirect) ctx.skip(skipDirect);
    const { zip, images } = archive();
    const { result, dir } = await ingest(zip);
    expect((await result).images).toHaveLength(images.size);
    // No probe file or padding left: exactly the images, each its own length.
    expect(readdirSync(dir).sort()).toEqual([...images.keys()].map((id) => `${id}.png`).sort());
    for (const [id, data] of images) {
      const file = join(dir, `${id}.png`);
      // Asked before the file is read below, which would bring it into the cache. At most one page:
      // cutting a file back within a block zeroes that block's tail through the cache on XFS.
      expect(cached(file), id).toBeLessThanOrEqual(4096);
      expect(readFileSync(file).equals(data), id).toBe(true);
    }
  });

  it.skipIf(process.platform !== 'linux' || !existsSync('/dev/shm'))(
    'go through the cache as before where the file system is not known to take them (tmpfs)',
    async () => {
      const base = mkdtempSync('/dev/shm/studio-direct-');
      onTestFinished(() => rmSync(base, { recursive: true, force: true }));
      const { zip, images } = archive();
      const { result, dir } = await ingest(zip, undefined, undefined, base);
      expect((await result).images).toHaveLength(images.size);
      expect(readdirSync(dir)).toHaveLength(images.size);
      for (const [id, data] of images)
        expect(readFileSync(join(dir, `${id}.png`)).equals(data), id).toBe(true);
    },
  );

  it('take only memory that starts on a page, and leave no file where they cannot write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-direct-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const direct = new DirectWrites(dir);
    const data = trickyImage(10_000);
    // An ordinary buffer may start anywhere: the caller writes it as before.
    expect(await direct.writeNew(join(dir, 'ordinary.png'), data)).toBeUndefined();
    // A view that does not start on a block cannot be written directly either.
    const lane = laneBuffer(64 * 1024);
    data.copy(lane, 100);
    expect(
      await direct.writeNew(join(dir, 'offset.png'), lane.subarray(100, 100 + data.length)),
    ).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
    // Lane memory, from its start: written whole where the folder takes it, its length exact.
    data.copy(lane, 0);
    lane.fill(0xee, data.length);
    const handle = await direct.writeNew(join(dir, 'lane.png'), lane.subarray(0, data.length));
    if (!skipDirect) expect(handle).toBeDefined();
    if (handle) {
      await handle.close();
      expect(readFileSync(join(dir, 'lane.png')).equals(data)).toBe(true);
    }
  });
});
