import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stagingLeftovers } from './helpers/library-audit';
import {
  batchDisplayState,
  downloadOffer,
  failedDownloadMessage,
} from '../../src-shared/batch-display-state';
import type { BatchView } from '../../src-shared/batch-view';
import type { Draft } from '../../src-shared/draft';
import { translatorIn } from '../../src-shared/i18n/translator';
import { DOWNLOAD_RETRY_CAP } from '../services/batches/download-scheduler';
import { call, startServices, waitUntil, type TestServices } from './helpers/studio-fixture';
import { soleMarksOnDisk } from './helpers/marks-on-disk';
import { FLASH } from './helpers/prompts-draft';

// A batch already in the library: what "Download now" does with it, and how its record follows
// the folder on disk. Real services against the real sandbox over HTTP.
const KEY = 'sk-sandbox-alice';

/**
 * A gateway in front of the sandbox that logs every request it forwards, so a test can say which
 * images were asked for. With `twoImages` it is a gateway whose items carry two images each: the
 * item listing says image_count 2, and image 2 of an item is served from the sandbox's image 1.
 */
class RecordingGateway {
  readonly log: string[] = [];
  twoImages = false;
  private server: Server;
  url = '';

  constructor(private upstream: () => string) {
    this.server = createServer((req, res) => {
      const target = new URL(this.upstream());
      let path = req.url ?? '/';
      this.log.push(`${req.method} ${path}`);
      const listing = this.twoImages && /\/items(\?|$)/.test(path);
      if (this.twoImages) path = path.replace(/\?image_index=1$/, '');
      const forward = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          if (!listing || answer.statusCode !== 200) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('end', () => {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
              data: { image_count: number }[];
            };
            for (const item of body.data) if (item.image_count === 1) item.image_count = 2;
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify(body));
          });
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The image requests logged: item routes as `customId#index`, and `zip` for a whole download. */
  images(): string[] {
    return this.log.flatMap((line) => {
      const item = /\/items\/([^/]+)\/content(?:\?image_index=(\d+))?$/.exec(line);
      if (item) return [`${decodeURIComponent(item[1]!)}#${item[2] ?? 0}`];
      return /\/download$/.test(line) ? ['zip'] : [];
    });
  }
}

let n = 0;
function draft(items: number): Draft {
  n++;
  return {
    id: `folder-${n}`,
    name: `Folder test ${n}`,
    model: FLASH,
    items: Array.from({ length: items }, (_, i) => ({
      customId: `f${n}-${i + 1}`,
      prompt: `folder test ${n} prompt ${i + 1}`,
      outputCount: 1,
      referenceIds: [],
    })),
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png',
  };
}

const get = (s: TestServices, id: string): Promise<BatchView> => call(s, 'batches.get', { id });

async function inLibrary(s: TestServices, items: number): Promise<{ batch: BatchView; dir: string }> {
  const { batch } = await call(s, 'batches.submit', { draft: draft(items) });
  const done = await waitUntil(
    () => get(s, batch.id),
    (b) => b.download.state === 'done' || b.download.state === 'failed',
  );
  expect(done.download.state).toBe('done');
  return { batch: done, dir: join((await call(s, 'settings.get')).libraryDir, done.download.folder!) };
}

// One studio whose active profile reaches the sandbox through the recording gateway; the sandbox
// runs 1000 times faster than real time, and so do the studio's waits for this profile.
const services = await startServices({ gatewaySpeed: 1000 });
const gateway = new RecordingGateway(() => services.sandbox.url);
await gateway.start();
afterAll(() => gateway.close());
const profile = await call(services, 'profiles.save', {
  name: 'Recorded gateway',
  baseUrl: gateway.url,
  gatewayKey: KEY,
});
await call(services, 'profiles.activate', { id: profile.id });
const events: { event: string; payload: any }[] = [];
services.events.subscribe((event, payload) => events.push({ event, payload }));

/** A failed download's label as the card and the detail show it (BatchState.tsx), in one language. */
function labelIn(language: 'en' | 'zh-CN', b: BatchView): string {
  const t = translatorIn(language);
  const state = batchDisplayState(b);
  if (state.kind !== 'download-failed') return state.kind;
  const message = failedDownloadMessage(state);
  return 'values' in message ? t(message.key, message.values) : t(message.key);
}

describe('Download now on a batch already in the library', () => {
  it('fetches only the images its folder lacks, keeps the marks, and leaves the folder whole', async () => {
    const { batch, dir } = await inLibrary(services, 4);
    const files = readdirSync(join(dir, 'images')).sort();
    expect(files).toHaveLength(4);
    const original = new Map(files.map((f) => [f, readFileSync(join(dir, 'images', f))]));
    // Marks on an image about to be deleted and on one that stays.
    const library = await call(services, 'library.query', { batchId: batch.id, sort: 'prompt' });
    const [first, , third] = library.items as { id: string; customId: string }[];
    await call(services, 'library.mark', { ids: [first!.id], mark: 'picked', stars: 5 });
    await call(services, 'library.mark', { ids: [third!.id], mark: 'rejected' });

    // The user deletes two images in the file manager, the first one marked.
    rmSync(join(dir, 'images', `${first!.customId}.png`));
    const second = files.find((f) => f !== `${first!.customId}.png` && f !== `${third!.customId}.png`)!;
    rmSync(join(dir, 'images', second));
    const lacking = await get(services, batch.id);
    expect(lacking.download.missing).toBe(2);
    expect(batchDisplayState(lacking)).toMatchObject({ kind: 'in-library', missing: 2 });
    expect(downloadOffer(lacking)).toEqual({ kind: 'fetch-missing', missing: 2 });

    gateway.log.length = 0;
    await call(services, 'batches.download', { id: batch.id, mode: 'missing' });
    const whole = await waitUntil(
      () => get(services, batch.id),
      (b) =>
        (b.download.state === 'done' && b.download.missing === undefined) || b.download.state === 'failed',
    );
    expect(whole.download).toMatchObject({ state: 'done', images: 4, folder: batch.download.folder });
    expect(downloadOffer(whole)).toEqual({ kind: 'replace', images: 4 });
    // Only the two missing images were asked for: no ZIP, no image the folder still had.
    expect(gateway.images().sort()).toEqual(
      [`${first!.customId}#0`, `${second.replace(/\.png$/, '')}#0`].sort(),
    );
    // The folder is whole again, byte for byte as the gateway made it, with both marks.
    expect(readdirSync(join(dir, 'images')).sort()).toEqual(files);
    for (const f of files)
      expect(readFileSync(join(dir, 'images', f)).equals(original.get(f)!), f).toBe(true);
    const review = { images: soleMarksOnDisk(dir) };
    expect(review.images[`images/${first!.customId}.png`]).toEqual({ mark: 'picked', stars: 5 });
    expect(review.images[`images/${third!.customId}.png`]).toMatchObject({ mark: 'rejected' });
    expect(stagingLeftovers(join(dir, '..'))).toEqual([]);
  });

  it('offers nothing to download for a batch whose outputs expired, unless it is in the library', async () => {
    const { batch } = await inLibrary(services, 1);
    await fetch(`${services.sandbox.url}/_sandbox/batches/${batch.id}/expire`, { method: 'POST' });
    await call(services, 'batches.sync');
    const expired = await waitUntil(
      () => get(services, batch.id),
      (b) => b.status === 'output_deleted',
    );
    // Still in the library: its folder is whole, and nothing on the server could replace it.
    expect(batchDisplayState(expired).kind).toBe('in-library');
    expect(downloadOffer(expired)).toEqual({ kind: 'none' });
    expect(downloadOffer({ ...expired, download: { state: 'none', attempts: 0 } })).toEqual({ kind: 'none' });
    expect(downloadOffer({ ...expired, goneOnServer: true, status: 'completed' })).toEqual({ kind: 'none' });
  });
});

describe('a library folder deleted on disk', () => {
  it('is no longer in the library, and with auto-download on comes back by itself', async () => {
    const { batch, dir } = await inLibrary(services, 2);
    const mark = events.length;
    rmSync(dir, { recursive: true, force: true });
    // The library's watch notices the folder leave; the batch's record follows, then the download.
    const updates = () =>
      events.slice(mark).filter((e) => e.event === 'batch.updated' && e.payload.id === batch.id);
    await waitUntil(updates, (list) => list.at(-1)?.payload.download.state === 'done');
    expect(updates()[0]!.payload.download.folder).toBeUndefined();
    expect(batchDisplayState(updates()[0]!.payload).kind).not.toBe('in-library');
    expect(existsSync(join(dir, 'batch.json'))).toBe(true);
    expect((await get(services, batch.id)).download).toMatchObject({ state: 'done', images: 2 });
  });

  it('with auto-download off, reads as not downloaded and offers Download now', async () => {
    const { batch, dir } = await inLibrary(services, 1);
    await call(services, 'settings.update', { autoDownload: false });
    try {
      rmSync(dir, { recursive: true, force: true });
      const cleared = await waitUntil(
        () => get(services, batch.id),
        (b) => b.download.folder === undefined,
      );
      expect(batchDisplayState(cleared)).toEqual({ kind: 'server', status: 'completed' });
      expect(downloadOffer(cleared)).toEqual({ kind: 'download' });
      expect(cleared.download.state).toBe('none');
    } finally {
      // Removed from the list, so turning auto-download on again does not fetch it during the
      // tests that follow (they count the gateway's downloads).
      await call(services, 'batches.deleteRecord', { id: batch.id, deleteLocalFiles: false });
      await call(services, 'settings.update', { autoDownload: true });
    }
  });
});

describe('a failed download', () => {
  it('says when it retries while a retry is set, and what the user can do once none is', async () => {
    services.sandbox.faults.set('badimage=1');
    try {
      const { batch } = await call(services, 'batches.submit', { draft: draft(1) });
      const mark = events.length;
      const given = await waitUntil(
        () => get(services, batch.id),
        (b) => b.download.state === 'failed' && b.download.nextRetryAt === undefined,
      );
      expect(given.download.attempts).toBeGreaterThanOrEqual(DOWNLOAD_RETRY_CAP);
      expect(labelIn('en', given)).toBe('Download failed. Press Download now to try again.');
      expect(labelIn('zh-CN', given)).toMatch(/立即下载/);
      // Before the cap, every failure came with the time of its retry, shown as a clock time.
      const retried = events
        .slice(mark)
        .find(
          (e) =>
            e.event === 'batch.updated' &&
            e.payload.id === batch.id &&
            e.payload.download.nextRetryAt !== undefined,
        );
      expect(retried).toBeDefined();
      expect(batchDisplayState(retried!.payload)).toMatchObject({ kind: 'download-failed' });
      expect(labelIn('en', retried!.payload)).toMatch(/^Download failed; retrying at \d{1,2}:\d{2}/);
      expect(labelIn('zh-CN', retried!.payload)).toMatch(/将于 \d{1,2}:\d{2} 自动重试/);
    } finally {
      services.sandbox.faults.set('');
    }
  });

  it('is tried again after a restart, at its retry time', async () => {
    const first = await startServices({ keepOpen: true, sandbox: { faults: 'badimage=1' } });
    let failedAt: BatchView | undefined;
    const stopAtFailure = first.events.subscribe((event, payload) => {
      const b = payload as BatchView;
      if (event === 'batch.updated' && b.download.state === 'failed' && !failedAt) {
        failedAt = b;
        // The session ends right after the failure: its retry timer goes with it.
        first.batches.stop();
      }
    });
    const { batch } = await call(first, 'batches.submit', { draft: draft(2) });
    await waitUntil(
      () => failedAt,
      (b) => b !== undefined,
    );
    stopAtFailure();
    expect(failedAt!.download.nextRetryAt).toBeDefined();
    await first.close();

    const next = await startServices({ dataDir: first.dataDir });
    const done = await waitUntil(
      () => get(next, batch.id),
      (b) => b.download.state === 'done',
    );
    expect(done.download).toMatchObject({ images: 2 });
    expect(done.download.nextRetryAt).toBeUndefined();
  });
});

describe('the item-by-item fallback', () => {
  it('counts images, not items, when each item carries two', async () => {
    gateway.twoImages = true;
    services.sandbox.faults.set('truncate=#2');
    try {
      const { batch } = await call(services, 'batches.submit', { draft: draft(3) });
      const done = await waitUntil(
        () => get(services, batch.id),
        (b) => b.download.state === 'done' || b.download.state === 'failed',
      );
      expect(done.download).toMatchObject({ state: 'done', source: 'items', images: 6 });
      const steps = events
        .filter(
          (e) =>
            e.event === 'download.progress' && e.payload.batchId === batch.id && e.payload.phase === 'items',
        )
        .map((e) => e.payload as { images: number; imagesTotal: number });
      // Never "image 5 of 3": the total is the images to fetch, and the count ends on it.
      for (const step of steps) expect(step.images).toBeLessThanOrEqual(step.imagesTotal);
      expect(steps.at(-1)).toMatchObject({ images: 6, imagesTotal: 6 });
    } finally {
      gateway.twoImages = false;
      services.sandbox.faults.set('');
    }
  });
});

describe('start-up', () => {
  it('removes temp files a kill left in drafts/ and at the library root, and nothing of the user’s', async () => {
    const first = await startServices({ keepOpen: true });
    const libraryDir = (await call(first, 'settings.get')).libraryDir as string;
    await first.close();
    const drafts = join(first.dataDir, 'drafts');
    mkdirSync(drafts, { recursive: true });
    mkdirSync(libraryDir, { recursive: true });
    writeFileSync(join(drafts, 'draft-1.json.3f9a21c7'), '{"half');
    writeFileSync(join(drafts, 'draft-2.json.tmp'), '{"half');
    writeFileSync(join(drafts, 'draft-3.json'), '{}');
    writeFileSync(join(libraryDir, 'collections.json.8b0c44e1'), '{"half');
    writeFileSync(join(libraryDir, 'collections.json.tmp'), '{"half');
    // The user's own files at the library root are not the studio's to remove.
    writeFileSync(join(libraryDir, 'my notes.tmp'), 'mine');

    const next = await startServices({ dataDir: first.dataDir });
    expect((await call(next, 'settings.get')).libraryDir).toBe(libraryDir);
    expect(readdirSync(drafts)).toEqual(['draft-3.json']);
    const root = readdirSync(libraryDir);
    expect(root.filter((n) => n.startsWith('collections.json.'))).toEqual([]);
    expect(root).toContain('my notes.tmp');
  });
});
