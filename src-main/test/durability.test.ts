import Conf from 'conf';
import fs, {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SubmissionStore } from '../services/batches/submission-store';
import { DraftStore } from '../services/drafts/draft-store';
import { writeFileAtomic, writeFileAtomicSync, writeJsonAtomic } from '../services/storage/atomic-file';
import { newStagingDir, publishBatchFolder } from '../services/library/folders/batch-folder';
import type { BatchJsonInput as BatchFile } from '../services/library/folders/batch-json';
import { stagingAreaOf } from '../services/library/sharing/studio-staging';
import { FileSecretStore } from '../services/secrets/secret-store';
import { flushedStore } from '../services/settings/key-value-store';

/**
 * What reached the disk, as the kernel is asked: every fsync and rename made through the fs
 * module, in order, each fsync with the path its descriptor points at (Linux's /proc/self/fd).
 */
type Step = { op: 'fsync'; path: string; seen?: boolean } | { op: 'rename'; from: string; to: string };
let steps: Step[] = [];
/** Asked at each fsync, to see the state of the disk at that moment. */
let probe: (() => boolean) | undefined;
const restore: (() => void)[] = [];

function instrument<K extends 'fsync' | 'fsyncSync' | 'rename' | 'renameSync'>(
  name: K,
  record: (args: any[]) => void,
) {
  const original = fs[name] as (...args: any[]) => any;
  (fs as any)[name] = (...args: any[]) => {
    record(args);
    return original(...args);
  };
  restore.push(() => ((fs as any)[name] = original));
}

const onFsync = ([fd]: any[]) => {
  const path = readlinkSync(`/proc/self/fd/${fd as number}`);
  steps.push({ op: 'fsync', path, seen: probe?.() });
};
const onRename = ([from, to]: any[]) => steps.push({ op: 'rename', from: String(from), to: String(to) });

beforeEach(() => {
  steps = [];
  instrument('fsync', onFsync);
  instrument('fsyncSync', onFsync);
  instrument('rename', onRename);
  instrument('renameSync', onRename);
});
afterEach(() => {
  for (const undo of restore.splice(0)) undo();
});

const folder = () => mkdtempSync(join(tmpdir(), 'durability-'));

/** The file was flushed under its temporary name, renamed over the target, then its folder flushed. */
function expectDurableWrite(target: string): void {
  const rename = steps.findIndex((s) => s.op === 'rename' && s.to === target);
  expect(rename, `${target} renamed into place`).toBeGreaterThanOrEqual(0);
  const from = (steps[rename] as { from: string }).from;
  const fileSync = steps.findIndex((s) => s.op === 'fsync' && s.path === from);
  expect(fileSync, `${basename(target)} flushed before its rename`).toBeGreaterThanOrEqual(0);
  expect(fileSync).toBeLessThan(rename);
  const dirSync = steps.findIndex((s, i) => i > rename && s.op === 'fsync' && s.path === dirname(target));
  expect(dirSync, `${dirname(target)} flushed after the rename`).toBeGreaterThan(rename);
}

describe('atomic writes reach the disk', () => {
  it('settings: each write is followed by a flush of the settings file’s folder', () => {
    const dir = folder();
    const conf = new Conf<Record<string, unknown>>({ cwd: dir, configName: 'settings', projectName: 't' });
    const store = flushedStore(conf);
    steps = [];
    store.set('settings', { language: 'zh-CN' });
    expect(steps.some((s) => s.op === 'fsync' && s.path === dir)).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).settings.language).toBe('zh-CN');
  });

  it('flush the parent of every folder they make, before the first file in it is written', async () => {
    const root = folder();
    const target = join(root, 'kb', 'pushes', 'p1.json');
    writeFileAtomicSync(target, '{}');
    // Each new folder's name is on disk (its parent flushed) before the file's rename is.
    const rename = steps.findIndex((s) => s.op === 'rename' && s.to === target);
    for (const made of [join(root, 'kb'), join(root, 'kb', 'pushes')]) {
      const parentSync = steps.findIndex((s) => s.op === 'fsync' && s.path === dirname(made));
      expect(parentSync, `${made}'s parent flushed`).toBeGreaterThanOrEqual(0);
      expect(parentSync, `${made}'s parent flushed before the write`).toBeLessThan(rename);
    }
    // A folder already there costs no flush of its parent.
    steps = [];
    await writeFileAtomic(join(root, 'kb', 'pushes', 'p2.json'), '{}');
    expect(steps.filter((s) => s.op === 'fsync' && s.path === join(root, 'kb'))).toEqual([]);
  });

  it('flush the file before the rename and the folder after it', async () => {
    const dir = folder();
    await writeFileAtomic(join(dir, 'a.bin'), Buffer.from('bytes'));
    expectDurableWrite(join(dir, 'a.bin'));
    await writeJsonAtomic(join(dir, 'review.json'), { images: {} });
    expectDurableWrite(join(dir, 'review.json'));
    expect(readFileSync(join(dir, 'review.json'), 'utf8')).toContain('images');
  });

  it('hold for submissions (money), drafts and the key file, which stays 0600', () => {
    const dir = folder();
    new SubmissionStore(join(dir, 'submissions')).put({
      id: 'sub_1',
      profileId: 'sandbox',
      idempotencyKey: 'k',
      state: 'pending',
      createdAt: Date.now(),
    } as never);
    expectDurableWrite(join(dir, 'submissions', 'sub_1.json'));

    new DraftStore(join(dir, 'drafts')).save({
      id: 'draft_1',
      name: 'Mugs',
      model: 'imgvendor-3.1-flash-image',
      items: [{ customId: 'r1', prompt: 'a mug', outputCount: 1, referenceIds: [] }],
      sharedReferenceIds: [],
      references: [],
      responseMime: 'image/png',
    });
    expectDurableWrite(join(dir, 'drafts', 'draft_1.json'));

    new FileSecretStore(dir).set('profile:x:gateway', 'sk-durable-key');
    expectDurableWrite(join(dir, 'secrets.json'));
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('publish a batch folder only once every file in it is flushed, then flush the library', async () => {
    const library = folder();
    const staging = await newStagingDir(stagingAreaOf(library, 'studio-a'), 'imgbatch_1');
    writeFileSync(join(staging, 'images', 'row-1.png'), 'png bytes');
    writeFileSync(join(staging, 'manifest.json'), '{}');
    steps = [];
    const target = join(library, 'Mugs imgbatch_1');
    probe = () => existsSync(target);
    const published = await publishBatchFolder(library, staging, 'Mugs imgbatch_1', {
      batch: { id: 'imgbatch_1' },
    } as unknown as BatchFile);
    probe = undefined;
    expect(published).toBe(true);
    expect(existsSync(join(target, 'images', 'row-1.png'))).toBe(true);
    const flushed = steps.filter((s) => s.op === 'fsync').map((s) => s.path);
    for (const file of ['images/row-1.png', 'manifest.json', 'batch.json', 'images'])
      expect(flushed, file).toContain(join(staging, file));
    // Files flushed while still in staging; the library's entry for the folder once it is in place.
    for (const s of steps)
      if (s.op === 'fsync' && s.path.startsWith(staging)) expect(s.seen, s.path).toBe(false);
    expect(steps.find((s) => s.op === 'fsync' && s.path === library)).toMatchObject({ seen: true });
  });

  it('replace a folder keeping the newest mark of each image, one set while the new folder was made too', async () => {
    const library = folder();
    const target = join(library, 'Mugs imgbatch_2');
    const review = (images: Record<string, { mark: string | null; stars: number }>) =>
      JSON.stringify({ format: 'batch-image-studio.review/1', images });
    mkdirSync(join(target, 'images'), { recursive: true });
    writeFileSync(join(target, 'images', 'row-1.png'), 'old bytes');
    writeFileSync(join(target, 'images', 'row-2.png'), 'old bytes');
    writeFileSync(
      join(target, 'review.json'),
      review({
        'images/row-1.png': { mark: 'picked', stars: 2 },
        'images/row-2.png': { mark: null, stars: 3 },
      }),
    );
    const staging = await newStagingDir(stagingAreaOf(library, 'studio-a'), 'imgbatch_2');
    writeFileSync(join(staging, 'images', 'row-1.png'), 'new bytes');
    writeFileSync(join(staging, 'images', 'row-2.png'), 'new bytes');
    // The user changes a mark while the new folder is being flushed, before the renames.
    let marked = false;
    probe = () => {
      if (!marked) {
        marked = true;
        writeFileSync(
          join(target, 'review.json'),
          review({
            'images/row-1.png': { mark: 'rejected', stars: 0 },
            'images/row-2.png': { mark: null, stars: 3 },
          }),
        );
      }
      return false;
    };
    await publishBatchFolder(library, staging, 'Mugs imgbatch_2', {
      batch: { id: 'imgbatch_2' },
    } as unknown as BatchFile);
    probe = undefined;
    expect(marked).toBe(true);
    expect(readFileSync(join(target, 'images', 'row-1.png'), 'utf8')).toBe('new bytes');
    expect(JSON.parse(readFileSync(join(target, 'review.json'), 'utf8')).images).toEqual({
      'images/row-1.png': { mark: 'rejected', stars: 0 },
      'images/row-2.png': { mark: null, stars: 3 },
    });
  });
});
