import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncthingPair, syncthingMissing, type SyncthingPair } from './helpers/syncthing-pair';

// The harness on plain files, before any studio code runs on it: what a library kept in step by
// Syncthing looks like on disk (temporaries, conflict copies, ignored staging), between two real
// instances on this machine.

if (syncthingMissing) console.log(`Syncthing tests skipped: ${syncthingMissing}`);

/** As the studio writes (write-file-atomic): a temporary beside the target, flushed, renamed over it. */
function writeAtomic(file: string, data: string | Buffer, mtime?: Date): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(temp, 'w');
  writeFileSync(fd, data);
  fsyncSync(fd);
  closeSync(fd);
  if (mtime) utimesSync(temp, mtime, mtime);
  renameSync(temp, file);
}

const CONFLICT = /^review\.sync-conflict-(\d{8})-(\d{6})-([A-Z0-9]{7})\.json$/;

describe.skipIf(!!syncthingMissing)('two real Syncthing instances keep two folders in step', () => {
  let root = '';
  let dirA = '';
  let dirB = '';
  let pair: SyncthingPair | undefined;
  const started = () => {
    if (!pair) throw new Error('the pair did not start');
    return pair;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'syncthing-folders-'));
    dirA = join(root, 'a');
    dirB = join(root, 'b');
    mkdirSync(dirA);
    mkdirSync(dirB);
    pair = await startSyncthingPair({ dirA, dirB, ignores: ['/.studio/staging'] });
  });
  afterAll(async () => {
    await pair?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('a file written atomically on A appears on B whole, under its name only at the end, with its mtime', async () => {
    const pair = started();
    const image = randomBytes(24 * 1024 * 1024);
    const mtime = new Date('2024-03-05T06:07:08.000Z');
    const seen = new Set<string>();

    // The folder must exist on B before it can be watched: a small file makes it first.
    writeAtomic(join(dirA, 'batch-1', 'prompt.txt'), 'a glazed stoneware bowl\n');
    await pair.waitFor('b', 'batch-1/prompt.txt', (b) => b?.toString() === 'a glazed stoneware bowl\n');
    // Each time the final name changes on B, its size then: only ever the whole file's.
    const sizes: number[] = [];
    const onB = watch(join(dirB, 'batch-1'), { persistent: false }, (_event, name) => {
      if (!name) return;
      seen.add(name);
      if (name !== 'image-01.png') return;
      try {
        sizes.push(statSync(join(dirB, 'batch-1', name)).size);
      } catch {
        // Not there (yet).
      }
    });
    const sent = Date.now();
    writeAtomic(join(dirA, 'batch-1', 'image-01.png'), image, mtime);
    // Read at the first moment the name exists: already whole.
    const first = await pair.waitFor('b', 'batch-1/image-01.png', (b) => b !== undefined, 30_000);
    console.log(`Syncthing: 24 MiB file on B ${Date.now() - sent} ms after the rename on A`);
    onB.close();
    expect(first?.equals(image)).toBe(true);
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes.every((size) => size === image.length)).toBe(true);
    expect(Math.round(statSync(join(dirB, 'batch-1', 'image-01.png')).mtimeMs)).toBe(mtime.getTime());

    const others = [...seen].filter((n) => n !== 'image-01.png');
    console.log(`Syncthing: names seen in B's folder while it arrived: ${[...seen].join(', ')}`);
    for (const name of others) expect(name).toMatch(/^\.syncthing\.image-01\.png\.tmp$/);
    await pair.waitInSync();
    expect(readdirSync(join(dirB, 'batch-1')).sort()).toEqual(['image-01.png', 'prompt.txt']);

    // A small change, and how long it takes to arrive (printed, not asserted).
    for (let i = 1; i <= 3; i += 1) {
      const t = Date.now();
      writeAtomic(join(dirA, 'batch-1', 'review.json'), `{"marks":${i}}\n`);
      await pair.waitFor('b', 'batch-1/review.json', (b) => b?.toString() === `{"marks":${i}}\n`);
      console.log(`Syncthing: small change on B ${Date.now() - t} ms after the rename on A`);
    }
  });

  it('two different files written at the same moment on both sides both survive on both', async () => {
    const pair = started();
    writeAtomic(join(dirA, 'batch-2', 'review', 'person-a.json'), '{"who":"a"}\n');
    writeAtomic(join(dirB, 'batch-2', 'review', 'person-b.json'), '{"who":"b"}\n');
    await pair.waitFor('a', 'batch-2/review/person-b.json', (b) => b?.toString() === '{"who":"b"}\n');
    await pair.waitFor('b', 'batch-2/review/person-a.json', (b) => b?.toString() === '{"who":"a"}\n');
    await pair.waitInSync();
    for (const dir of [dirA, dirB]) {
      expect(readdirSync(join(dir, 'batch-2', 'review')).sort()).toEqual(['person-a.json', 'person-b.json']);
      expect(readFileSync(join(dir, 'batch-2', 'review', 'person-a.json'), 'utf8')).toBe('{"who":"a"}\n');
      expect(readFileSync(join(dir, 'batch-2', 'review', 'person-b.json'), 'utf8')).toBe('{"who":"b"}\n');
    }
  });

  it('one file changed on both sides while they are apart leaves a sync-conflict copy on both', async () => {
    const pair = started();
    writeAtomic(join(dirA, 'batch-3', 'review.json'), '{"v":0}\n');
    await pair.waitFor('b', 'batch-3/review.json', (b) => b?.toString() === '{"v":0}\n');
    await pair.waitInSync();

    await pair.pause();
    // B's edit is the older one, so it loses and becomes the copy, on both sides.
    writeAtomic(join(dirB, 'batch-3', 'review.json'), '{"v":"b"}\n', new Date(Date.now() - 60_000));
    writeAtomic(join(dirA, 'batch-3', 'review.json'), '{"v":"a"}\n');
    await pair.rescan();
    await pair.resume();
    await pair.waitFor('b', 'batch-3/review.json', (b) => b?.toString() === '{"v":"a"}\n');
    await pair.waitInSync();

    for (const dir of [dirA, dirB]) {
      const names = readdirSync(join(dir, 'batch-3')).sort();
      const copies = names.filter((n) => CONFLICT.test(n));
      const ids = `A ${pair.deviceIds.a.slice(0, 7)}, B ${pair.deviceIds.b.slice(0, 7)}`;
      console.log(`Syncthing: conflict copy in ${dir === dirA ? 'A' : 'B'}: ${copies.join(', ')} (${ids})`);
      expect(names).toEqual(['review.json', ...copies].sort());
      expect(copies).toHaveLength(1);
      const copy = copies[0] ?? '';
      const copyDevice = CONFLICT.exec(copy)?.[3];
      expect(readFileSync(join(dir, 'batch-3', copy), 'utf8')).toBe('{"v":"b"}\n');
      expect(readFileSync(join(dir, 'batch-3', 'review.json'), 'utf8')).toBe('{"v":"a"}\n');
      // Syncthing 1.19 names the device whose version won (A here), not the copy's author: read the
      // copy's contents to learn whose it is. The date and time are local, when the conflict was met.
      expect([pair.deviceIds.a.slice(0, 7), pair.deviceIds.b.slice(0, 7)]).toContain(copyDevice);
    }
  });

  it('a .stignore listing /.studio/staging keeps staging apart, and is not synced itself', async () => {
    const pair = started();
    writeAtomic(join(dirA, '.studio', 'staging', 'download-1', 'image-01.png'), randomBytes(1024));
    writeAtomic(join(dirA, '.studio', 'staging', 'download-1', 'review.json'), '{}\n');
    writeAtomic(join(dirA, '.studio', 'people', 'a.json'), '{"name":"A"}\n');
    // A line only A has: if .stignore were synced, B would get it.
    writeFileSync(join(dirA, '.stignore'), '/.studio/staging\n// only on A\n');
    await pair.waitFor('b', '.studio/people/a.json', (b) => b?.toString() === '{"name":"A"}\n');
    await pair.waitInSync();
    expect(readdirSync(join(dirB, '.studio'))).toEqual(['people']);
    expect(readFileSync(join(dirB, '.stignore'), 'utf8')).toBe('/.studio/staging\n');
    // And what B stages stays on B.
    writeAtomic(join(dirB, '.studio', 'staging', 'download-2', 'image-01.png'), randomBytes(1024));
    writeAtomic(join(dirB, 'batch-4', 'prompt.txt'), 'after the staging\n');
    await pair.waitFor('a', 'batch-4/prompt.txt', (b) => b?.toString() === 'after the staging\n');
    await pair.waitInSync();
    expect(readdirSync(join(dirA, '.studio', 'staging'))).toEqual(['download-1']);
  });
});
