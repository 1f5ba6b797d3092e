import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ingest, manifestOf, png, trickyImage, zipOf } from './helpers/zip-by-hand';

// V8's flags are the process's, and there is no way to read one back: the calls are recorded on
// their way to the real V8, which still takes every one of them. The heap's size is set by each
// test: a studio's heap is small, or large with a big catalog.
const flags = vi.hoisted(() => [] as string[]);
const heap = vi.hoisted(() => ({ used: 0 }));
vi.mock('node:v8', async (original) => {
  const v8 = await original<typeof import('node:v8')>();
  return {
    ...v8,
    getHeapStatistics: () => ({ ...v8.getHeapStatistics(), used_heap_size: heap.used }),
    setFlagsFromString: (flag: string) => {
      flags.push(flag);
      v8.setFlagsFromString(flag);
    },
  };
});

const growth = () => flags.filter((f) => f.startsWith('--heap-growing-percent'));
const MB = 1024 * 1024;

/** A stream whose next piece waits until `go` is called: an ingest held open mid-archive. */
function held(zip: Buffer) {
  let go!: () => void;
  const gate = new Promise<void>((r) => (go = r));
  const half = zip.length >> 1;
  const stream = async function* () {
    yield zip.subarray(0, half);
    await gate;
    yield zip.subarray(half);
  };
  return { open: (from: number) => (from === 0 ? stream() : undefined), go };
}

describe('room for the archive’s slabs while a ZIP streams in', () => {
  it('lets a small heap grow while any ingest runs, and gives V8 back its own choice when the last ends', async () => {
    flags.length = 0;
    heap.used = 12 * MB; // 48 MB of room would be 5× the heap: held to 3.5×
    const data = trickyImage(400_000);
    const zip = zipOf([{ name: 'images/a.png', data, deflate: true }, manifestOf(['a'])]);
    const broken = zipOf([{ name: 'images/b.png', data: png }]); // no manifest: refused at its end
    const first = held(zip);
    const second = held(broken);
    const one = await ingest(zip, first.open);
    const two = await ingest(broken, second.open);
    const refused = two.result.catch((e: unknown) => e);
    // Both are streaming, each held mid-archive.
    expect(growth()).toEqual(['--heap-growing-percent=250']);
    first.go();
    await one.result;
    // The other ingest still streams: the room stays.
    expect(growth()).toEqual(['--heap-growing-percent=250']);
    second.go();
    expect(String(await refused)).toMatch(/manifest\.json is missing/);
    expect(growth()).toEqual(['--heap-growing-percent=250', '--heap-growing-percent=0']);
    expect(readFileSync(join(one.dir, 'a.png')).equals(data)).toBe(true);
  });

  it('gives a larger heap room for 48 MB of slabs, and leaves one that already has it as V8 sizes it', async () => {
    const zip = zipOf([{ name: 'images/a.png', data: png }, manifestOf(['a'])]);
    flags.length = 0;
    heap.used = 32 * MB;
    const middle = await ingest(zip);
    await middle.result;
    expect(growth()).toEqual(['--heap-growing-percent=150', '--heap-growing-percent=0']);
    flags.length = 0;
    heap.used = 300 * MB;
    const large = await ingest(zip);
    await large.result;
    expect(growth()).toEqual([]);
  });
});
