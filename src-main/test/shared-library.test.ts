import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { lockRecordOf } from '../services/storage/data-folder-lock';
import { claimLease, leaseFileOf } from '../services/library/sharing/download-lease';
import { newStagingDir, publishBatchFolder } from '../services/library/folders/batch-folder';
import type { BatchJsonInput as BatchFile } from '../services/library/folders/batch-json';
import { libraryIdentity } from '../services/library/folders/library-identity';
import { stagingAreaOf } from '../services/library/sharing/studio-staging';
import { walk } from './helpers/library-audit';
import { call, startServices, waitUntil } from './helpers/studio-fixture';
import { catalogFileOf, testCatalog } from './helpers/test-catalog';

const png = (hue: string) =>
  sharp({ create: { width: 32, height: 18, channels: 3, background: hue } })
    .png()
    .toBuffer();

/** A batch folder as a studio publishes one: batch.json and its images, nothing else. */
async function batchFolder(root: string, name: string, id: string, marks?: object): Promise<string> {
  const dir = join(root, name);
  mkdirSync(join(dir, 'images'), { recursive: true });
  const hues = ['#4a7', '#a47', '#47a'];
  const images = [];
  for (const [i, hue] of hues.entries()) {
    writeFileSync(join(dir, 'images', `row-${i + 1}.png`), await png(hue));
    images.push({
      customId: `row-${i + 1}`,
      file: `images/row-${i + 1}.png`,
      prompt: `cup ${i + 1}`,
      rowIndex: i,
    });
  }
  const batch = { id, task_name: name, model: 'm', created_at: 1_790_000_000 };
  writeFileSync(join(dir, 'batch.json'), JSON.stringify({ batch, images }));
  if (marks)
    writeFileSync(
      join(dir, 'review.json'),
      JSON.stringify({ format: 'batch-image-studio.review/1', images: marks }),
    );
  return dir;
}

const folder = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

describe('a library shared by several studios: what each keeps of it', () => {
  it('keeps its catalog and hashes in its own data folder; an older studio’s .catalog is left alone', async () => {
    const library = folder('shared-library-');
    await batchFolder(library, 'Cups imgbatch_c1', 'imgbatch_c1');
    mkdirSync(join(library, '.catalog'));
    const legacy = 'a catalog an older studio of the team still uses';
    writeFileSync(join(library, '.catalog', 'library.sqlite'), legacy);
    const services = await startServices({ studioId: 'studio-a' });
    await call(services, 'settings.update', { libraryDir: library });
    const listed = await waitUntil(
      () => call(services, 'library.query', {}),
      (r: any) => r.total === 3,
    );
    expect(listed.items.map((i: any) => i.prompt).sort()).toEqual(['cup 1', 'cup 2', 'cup 3']);

    // The id file, made once; the catalog under that id in the data folder.
    const identity = JSON.parse(readFileSync(join(library, '.studio-library.json'), 'utf8'));
    expect(identity).toEqual({ format: 'batch-image-studio.library/1', id: expect.any(String) });
    expect(libraryIdentity(library)).toEqual({ id: identity.id, from: 'file' });
    const home = join(services.dataDir, 'libraries', identity.id);
    expect(existsSync(join(home, 'catalog.sqlite'))).toBe(true);
    expect(readFileSync(join(library, '.catalog', 'library.sqlite'), 'utf8')).toBe(legacy);

    // The images hashed in the background: the hashes in the data folder, none in the library.
    const hashes = join(home, 'hashes', 'Cups imgbatch_c1.json');
    await waitUntil(
      () => existsSync(hashes),
      (there) => there,
    );
    expect(Object.keys(JSON.parse(readFileSync(hashes, 'utf8')).images).sort()).toEqual([
      'images/row-1.png',
      'images/row-2.png',
      'images/row-3.png',
    ]);
    const files = walk(library);
    expect(files.filter((f) => /sqlite|hashes/.test(f))).toEqual(['.catalog/library.sqlite']);
  });

  it('never rewrites a .stignore the team already has', async () => {
    const library = folder('shared-stignore-');
    writeFileSync(join(library, '.stignore'), '*.psd\n');
    const services = await startServices({ studioId: 'studio-a' });
    await call(services, 'settings.update', { libraryDir: library });
    await batchFolder(library, 'Cups imgbatch_s1', 'imgbatch_s1');
    await call(services, 'library.query', {});
    await services.close();
    const again = await startServices({ studioId: 'studio-a', dataDir: services.dataDir });
    await call(again, 'library.query', {});
    expect(readFileSync(join(library, '.stignore'), 'utf8')).toBe('*.psd\n');
  });

  it('a start cleans its own crashed staging only: another studio’s live download and the legacy area stay', async () => {
    const library = folder('shared-staging-');
    const first = await startServices({ studioId: 'studio-a', keepOpen: true });
    await call(first, 'settings.update', { libraryDir: library });
    await first.close();

    const area = (id: string) => join(library, '.studio', 'staging', id);
    const record = (pid: number, studioId: string) => JSON.stringify({ ...lockRecordOf(pid), studioId });
    // Studio B, alive (its process runs), mid-download.
    mkdirSync(join(area('studio-b'), 'imgbatch_b-1111', 'images'), { recursive: true });
    writeFileSync(join(area('studio-b'), 'owner.json'), record(process.ppid, 'studio-b'));
    writeFileSync(join(area('studio-b'), 'imgbatch_b-1111', 'images', 'row-1.png'), 'half');
    // Studio A's own crash: a download cut short, and a replacement killed after its first rename
    // (the old folder aside with its mark, the new one in place without it).
    mkdirSync(join(area('studio-a'), 'imgbatch_a-2222', 'images'), { recursive: true });
    writeFileSync(join(area('studio-a'), 'owner.json'), record(2 ** 22 + 7, 'studio-a'));
    writeFileSync(join(area('studio-a'), 'imgbatch_a-2222', 'images', 'row-1.png'), 'half');
    await batchFolder(library, 'Mugs imgbatch_r1', 'imgbatch_r1');
    await batchFolder(area('studio-a'), 'replaced-beef', 'imgbatch_r1', {
      'images/row-2.png': { mark: 'picked', stars: 4 },
    });
    writeFileSync(
      join(area('studio-a'), 'replace-beef.json'),
      JSON.stringify({ target: 'Mugs imgbatch_r1', old: 'replaced-beef' }),
    );
    // An older studio's shared area: a folder moved aside (its own is gone), and a live download.
    const legacy = join(library, '.studio-staging');
    await batchFolder(legacy, 'replaced-cafe', 'imgbatch_l1', {
      'images/row-1.png': { mark: 'rejected', stars: 0 },
    });
    writeFileSync(
      join(legacy, 'replace-cafe.json'),
      JSON.stringify({ target: 'Bowls imgbatch_l1', old: 'replaced-cafe' }),
    );
    mkdirSync(join(legacy, 'imgbatch_o-3333', 'images'), { recursive: true });
    writeFileSync(join(legacy, 'imgbatch_o-3333', 'images', 'row-1.png'), 'older studio, downloading');

    const services = await startServices({ studioId: 'studio-a', dataDir: first.dataDir });
    const staged = walk(join(library, '.studio', 'staging'));
    expect(staged.filter((f) => f.startsWith('studio-b/')).sort()).toEqual([
      'studio-b/imgbatch_b-1111/images/row-1.png',
      'studio-b/owner.json',
    ]);
    expect(staged.filter((f) => f.startsWith('studio-a/'))).toEqual([]);
    expect(walk(legacy)).toEqual(['imgbatch_o-3333/images/row-1.png']);
    const marks = await waitUntil(
      () => call(services, 'library.query', {}),
      (r: any) => r.total === 6,
    );
    const byPrompt = (batch: string) =>
      marks.items
        .filter((i: any) => i.batchId === batch)
        .map((i: any) => [i.prompt, i.mark, i.stars])
        .sort();
    expect(byPrompt('imgbatch_r1')).toEqual([
      ['cup 1', null, 0],
      ['cup 2', 'picked', 4],
      ['cup 3', null, 0],
    ]);
    expect(byPrompt('imgbatch_l1')).toContainEqual(['cup 1', 'rejected', 0]);
    // Syncthing is told to leave the studios' staging on each machine.
    expect(readFileSync(join(library, '.stignore'), 'utf8')).toMatch(/^\/\.studio\/staging$/m);
  });
});

describe('publishing into a shared library', () => {
  it('never replaces a folder that appeared meanwhile, unless it is Download again', async () => {
    const library = folder('shared-publish-');
    const theirs = await batchFolder(library, 'Jugs imgbatch_p1', 'imgbatch_p1');
    const before = readFileSync(join(theirs, 'batch.json'), 'utf8');
    const staged = async () => {
      const dir = await newStagingDir(stagingAreaOf(library, 'studio-a'), 'imgbatch_p1');
      writeFileSync(join(dir, 'images', 'row-1.png'), 'mine');
      return dir;
    };
    const record = { batch: { id: 'imgbatch_p1' }, images: [] } as unknown as BatchFile;
    const mine = await staged();
    expect(await publishBatchFolder(library, mine, 'Jugs imgbatch_p1', record, { replace: false })).toBe(
      false,
    );
    expect(readFileSync(join(theirs, 'batch.json'), 'utf8')).toBe(before);
    expect(existsSync(mine)).toBe(false);
    expect(await publishBatchFolder(library, await staged(), 'Jugs imgbatch_p1', record)).toBe(true);
    expect(readFileSync(join(theirs, 'images', 'row-1.png'), 'utf8')).toBe('mine');
  });
});

describe('realtime results saved by two studios the same day', () => {
  it('go into a folder per studio, and a folder of an older studio stays as it is', async () => {
    const library = folder('shared-realtime-');
    const day = new Date().toISOString().slice(0, 10);
    const older = await batchFolder(library, `Realtime ${day}`, `realtime-${day}`);
    const olderRecord = readFileSync(join(older, 'batch.json'), 'utf8');
    const save = async (studioId: string) => {
      const services = await startServices({ studioId });
      await call(services, 'settings.update', { libraryDir: library });
      const job = await call(services, 'realtime.generate', {
        prompt: `a kettle by ${studioId}`,
        model: 'imgvendor-3.1-flash-image',
      });
      await waitUntil(
        () => call(services, 'realtime.jobs'),
        (jobs: { id: string; state: string }[]) => jobs.some((j) => j.id === job.id && j.state === 'done'),
      );
      return { services, saved: (await call(services, 'realtime.save', { id: job.id })) as string };
    };
    const a = await save('studio-one');
    const b = await save('studio-two');
    expect(a.saved.split('/')[0]).toBe(`Realtime ${day} studio-o`);
    expect(b.saved.split('/')[0]).toBe(`Realtime ${day} studio-t`);
    for (const { saved } of [a, b]) {
      const record = JSON.parse(readFileSync(join(library, saved.split('/')[0]!, 'batch.json'), 'utf8'));
      expect(record.images).toHaveLength(1);
    }
    expect(readFileSync(join(older, 'batch.json'), 'utf8')).toBe(olderRecord);
    const listed = await waitUntil(
      () => call(b.services, 'library.query', {}),
      (r: any) => r.total === 5,
    );
    expect(
      listed.items
        .map((i: any) => i.prompt)
        .filter((p: string) => p.startsWith('a kettle'))
        .sort(),
    ).toEqual(['a kettle by studio-one', 'a kettle by studio-two']);
  });
});

describe('a download lease', () => {
  it('is one studio’s at a time, taken over once its holder is dead, and released by its holder only', async () => {
    const library = folder('shared-lease-');
    const held = await claimLease(library, 'imgbatch_1', 'studio-a');
    expect(held).toBeDefined();
    expect(await claimLease(library, 'imgbatch_1', 'studio-b')).toBeUndefined();
    await held!.release();
    expect(existsSync(leaseFileOf(library, 'imgbatch_1'))).toBe(false);

    // A holder whose process is gone (a crash): taken over at once.
    writeFileSync(
      leaseFileOf(library, 'imgbatch_2'),
      JSON.stringify({ ...lockRecordOf(process.pid), pid: 2 ** 22 + 7, studioId: 'studio-c' }),
    );
    const taken = await claimLease(library, 'imgbatch_2', 'studio-b');
    expect(taken).toBeDefined();
    expect(JSON.parse(readFileSync(leaseFileOf(library, 'imgbatch_2'), 'utf8')).studioId).toBe('studio-b');
    // Another machine's holder, heard from lately: kept. Silent for three heartbeats: taken over.
    writeFileSync(
      leaseFileOf(library, 'imgbatch_3'),
      JSON.stringify({ ...lockRecordOf(process.pid), host: 'another-machine', studioId: 'studio-d' }),
    );
    expect(await claimLease(library, 'imgbatch_3', 'studio-b')).toBeUndefined();
    const { utimesSync } = await import('node:fs');
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(leaseFileOf(library, 'imgbatch_3'), old, old);
    expect(await claimLease(library, 'imgbatch_3', 'studio-b')).toBeDefined();
  });
});

// A library on a share this machine may only read: a read-only mount, which needs root on Linux.
const readOnly = mkdtempSync(join(tmpdir(), 'shared-readonly-'));
const mounted =
  process.platform === 'linux' &&
  spawnSync('mount', ['--bind', readOnly, readOnly]).status === 0 &&
  (await batchFolder(readOnly, 'Cups imgbatch_ro', 'imgbatch_ro').then(() => true)) &&
  spawnSync('mount', ['-o', 'remount,bind,ro', readOnly]).status === 0;
if (!mounted) console.log('read-only library test skipped: a read-only bind mount needs root on Linux');
afterAll(() => {
  spawnSync('umount', ['--lazy', readOnly]);
  rmSync(readOnly, { recursive: true, force: true });
});

describe.skipIf(!mounted)('a library folder that cannot be written', () => {
  it('opens and lists its images, under an id derived from its path, its index elsewhere', async () => {
    expect(libraryIdentity(readOnly).from).toBe('path');
    const catalog = testCatalog(() => readOnly);
    try {
      const listed = await catalog.query({});
      expect(listed.items.map((i) => i.prompt).sort()).toEqual(['cup 1', 'cup 2', 'cup 3']);
      expect(existsSync(catalogFileOf(readOnly))).toBe(true);
      expect(walk(readOnly).filter((f) => f.startsWith('.'))).toEqual([]);
    } finally {
      catalog.close();
    }
  });
});
