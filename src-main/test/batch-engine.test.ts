import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { stagingLeftovers } from './helpers/library-audit';
import type { BatchView } from '../../src-shared/batch-view';
import type { Draft } from '../../src-shared/draft';
import { FLASH, promptsDraft, type TestRow } from './helpers/prompts-draft';
import { call, startServices, waitUntil, type TestServices } from './helpers/studio-fixture';

const services = await startServices();

let draftCounter = 0;
function draft(prompts: TestRow[], extra: Partial<Draft> = {}): Draft {
  draftCounter++;
  return { ...promptsDraft(`draft-${draftCounter}`, `Mugs ${draftCounter}`, prompts, 'row-'), ...extra };
}

async function submit(s: TestServices, d: Draft, parentBatchId?: string): Promise<BatchView> {
  const result = await call(s, 'batches.submit', { draft: d, ...(parentBatchId ? { parentBatchId } : {}) });
  expect(result.batch).toBeDefined();
  return result.batch;
}

function batchOf(s: TestServices, id: string): Promise<BatchView> {
  return call(s, 'batches.get', { id });
}

const downloaded = (b: BatchView) =>
  b.download.state === 'done' || b.download.state === 'failed' || b.download.state === 'unavailable';

async function png(color: string, size = 64): Promise<string> {
  return (
    await sharp({ create: { width: size, height: size, channels: 3, background: color } })
      .png()
      .toBuffer()
  ).toString('base64');
}

describe('submit, track, download', () => {
  it('sends a draft once, follows it to completed, and files every image in the library', async () => {
    const finished: string[] = [];
    const statuses: string[] = [];
    const off = services.events.subscribe((event, payload: any) => {
      if (event === 'batch.finished') finished.push(payload.id);
      if (event === 'batch.updated' && statuses[statuses.length - 1] !== payload.status)
        statuses.push(payload.status);
    });
    const before = services.sandbox.inspect().accounts['sk-sandbox-alice']!;
    const shared = await call(services, 'references.add', {
      name: 'style.png',
      dataBase64: await png('#ff0000'),
    });
    const own = await call(services, 'references.add', { name: 'mug.png', dataBase64: await png('#00ff00') });
    const d = draft(
      [
        { prompt: 'A mug on linen, 亚麻布上的杯子', referenceIds: [own.id] },
        { prompt: 'A mug on oak', outputCount: 2 },
        { prompt: 'A mug on slate', customId: 'slate:01' },
      ],
      { sharedReferenceIds: [shared.id], references: [shared, own] },
    );
    const created = await submit(services, d);
    expect(created).toMatchObject({ status: 'queued', itemCount: 4, origin: 'studio', hasDraft: true });
    expect(created.estimatedCost).toBeGreaterThan(0);
    expect(created.holdAmount).toBeGreaterThan(created.estimatedCost);

    const done = await waitUntil(
      () => batchOf(services, created.id),
      (b) => downloaded(b),
    );
    off();
    expect(done).toMatchObject({
      status: 'completed',
      successCount: 4,
      download: { state: 'done', source: 'zip', images: 4 },
    });
    expect(done.outputsExpireAt).toBe(done.settledAt! + 72 * 3600);
    expect(finished).toEqual([created.id]);
    expect(statuses).toContain('completed');

    const after = services.sandbox.inspect().accounts['sk-sandbox-alice']!;
    expect(after.batchesCreated - before.batchesCreated).toBe(1);

    const libraryDir = (await call(services, 'settings.get')).libraryDir;
    const folder = join(libraryDir, done.download.folder!);
    expect(readdirSync(folder).sort()).toEqual([
      'batch.json',
      'errors.json',
      'images',
      'manifest.json',
      'references',
    ]);
    const images = readdirSync(join(folder, 'images')).sort();
    expect(images).toEqual(['row-1.png', 'row-2_01.png', 'row-2_02.png', 'slate_01.png']);
    for (const file of images)
      expect((await sharp(join(folder, 'images', file)).metadata()).format).toBe('png');
    const record = JSON.parse(readFileSync(join(folder, 'batch.json'), 'utf8'));
    expect(record.format).toBe('batch-image-studio.batch/1');
    expect(record.batch.id).toBe(created.id);
    expect(record.draft.items.map((i: any) => i.prompt)).toEqual([
      'A mug on linen, 亚麻布上的杯子',
      'A mug on oak',
      'A mug on slate',
    ]);
    expect(record.lineage).toEqual({ rootBatchId: created.id, parentBatchId: null });
    expect(record.images.find((i: any) => i.customId === 'row-2_02')).toMatchObject({
      rowIndex: 1,
      prompt: 'A mug on oak',
      file: 'images/row-2_02.png',
    });
    expect(record.references.map((r: any) => r.name).sort()).toEqual(['mug.png', 'style.png']);
    for (const ref of record.references) expect(existsSync(join(folder, ref.file))).toBe(true);
    expect(JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')).success_count).toBe(4);
    // Nothing half-done is left behind.
    expect(stagingLeftovers(libraryDir)).toEqual([]);

    const items = await call(services, 'batches.items', { id: created.id });
    expect(items.find((i: any) => i.customId === 'row-1')).toMatchObject({
      status: 'success',
      prompt: 'A mug on linen, 亚麻布上的杯子',
      rowIndex: 0,
    });
    expect(items.find((i: any) => i.customId === 'row-1').file).toContain('images/row-1.png');
  });

  it('an id that would climb out of the folder gets the archive refused, and a safe name', async () => {
    const created = await submit(services, draft([{ prompt: 'sneaky', customId: '../../outside' }, 'plain']));
    const done = await waitUntil(() => batchOf(services, created.id), downloaded);
    // The gateway put images/../../outside.png in its ZIP: refused, so the images came one by one.
    expect(done.download).toMatchObject({ state: 'done', source: 'items', images: 2 });
    const libraryDir = (await call(services, 'settings.get')).libraryDir;
    expect(readdirSync(join(libraryDir, done.download.folder!, 'images')).sort()).toEqual([
      '__.._outside.png',
      'row-2.png',
    ]);
    expect(existsSync(join(libraryDir, '..', 'outside.png'))).toBe(false);
    expect(existsSync(join(libraryDir, 'outside.png'))).toBe(false);
  });

  it('converts a reference image the gateway does not take into PNG', async () => {
    const gif = (
      await sharp({ create: { width: 32, height: 32, channels: 3, background: '#123456' } })
        .gif()
        .toBuffer()
    ).toString('base64');
    const ref = await call(services, 'references.add', { name: 'old.gif', dataBase64: gif });
    expect(ref).toMatchObject({ mime: 'image/png', name: 'old.png', converted: true, width: 32 });
    const bad = await services.dispatch('references.add', {
      name: 'notes.txt',
      dataBase64: Buffer.from('hello').toString('base64'),
    });
    expect(!bad.ok && bad.error.code).toBe('STUDIO_REFERENCE_UNREADABLE');
  });

  it('refuses an invalid draft before sending anything', async () => {
    const before = services.sandbox.inspect().accounts['sk-sandbox-alice']!.batchesCreated;
    const bad = draft(['fine', { prompt: '狐'.repeat(2667) }, { prompt: 'dup', customId: 'row-1' }]);
    const result = await services.dispatch('batches.submit', { draft: bad });
    expect(!result.ok && result.error.code).toBe('STUDIO_DRAFT_INVALID');
    expect(services.sandbox.inspect().accounts['sk-sandbox-alice']!.batchesCreated).toBe(before);
  });
});

describe('exactly once', () => {
  it('a lost create answer is sent again with the same key: one batch, one hold', async () => {
    const before = services.sandbox.inspect().accounts['sk-sandbox-alice']!;
    services.sandbox.faults.set('lostcreate=#1');
    const created = await submit(services, draft(['lost answer']));
    const after = services.sandbox.inspect().accounts['sk-sandbox-alice']!;
    expect(after.batchesCreated - before.batchesCreated).toBe(1);
    expect(after.holdsPlaced - before.holdsPlaced).toBe(1);
    // The resend replays the batch as it is now: at this time scale it may already have moved on.
    expect(created.id).toBeTruthy();
    expect(['queued', 'running', 'processing_results', 'settling', 'completed']).toContain(created.status);
    const listed = (await call(services, 'batches.list')).filter((b: any) => b.id === created.id);
    expect(listed).toHaveLength(1);
  });

  it('a proxy 502 or a reset leaves the outcome unknown: resent with the same key', async () => {
    for (const fault of ['502=#1', 'reset=#2', '504=#1']) {
      const before = services.sandbox.inspect().accounts['sk-sandbox-alice']!.batchesCreated;
      services.sandbox.faults.set(fault);
      await submit(services, draft([`after ${fault}`]));
      expect(services.sandbox.inspect().accounts['sk-sandbox-alice']!.batchesCreated - before).toBe(1);
    }
  });

  it('a definite error ends the submission; the next attempt uses a new key', async () => {
    services.sandbox.faults.set('submit_failed=#1');
    const d = draft(['definite']);
    const first = await services.dispatch('batches.submit', { draft: d });
    expect(!first.ok && first.error).toMatchObject({
      code: 'BATCH_IMAGE_PROVIDER_SUBMIT_FAILED',
      httpStatus: 502,
      source: 'gateway',
    });
    expect(!first.ok && first.error.requestId).toBeTruthy();
    const failed = (await call(services, 'batches.submissions')).filter((s: any) => s.state === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const second = await submit(services, d);
    expect(second.status).toBe('queued');
  });

  it('a poor balance is refused with the gateway code and nothing is held', async () => {
    const saved = await call(services, 'profiles.save', {
      name: 'Poor',
      baseUrl: services.sandbox.url,
      gatewayKey: 'sk-sandbox-poor',
    });
    await call(services, 'profiles.activate', { id: saved.id });
    try {
      const result = await services.dispatch('batches.submit', { draft: draft(['too expensive']) });
      expect(!result.ok && result.error).toMatchObject({
        code: 'BATCH_IMAGE_INSUFFICIENT_BALANCE',
        httpStatus: 402,
      });
    } finally {
      await call(services, 'profiles.activate', { id: 'sandbox' });
    }
  });
});

describe('actions', () => {
  it('retries the failed items from the saved draft, linked to the root, and shows the family', async () => {
    const shared = await call(services, 'references.add', {
      name: 'keep.png',
      dataBase64: await png('#0000ff'),
    });
    const d = draft(
      ['works', { prompt: 'breaks [fail:SAFETY_BLOCKED]', outputCount: 2 }, { prompt: 'also works' }],
      { sharedReferenceIds: [shared.id], references: [shared] },
    );
    const root = await submit(services, d);
    const done = await waitUntil(() => batchOf(services, root.id), downloaded);
    expect(done).toMatchObject({ successCount: 2, failCount: 2 });
    const failures = JSON.parse(
      readFileSync(
        join((await call(services, 'settings.get')).libraryDir, done.download.folder!, 'batch.json'),
        'utf8',
      ),
    ).failures;
    expect(failures.map((f: any) => [f.customId, f.code, f.rowIndex])).toEqual([
      ['row-2_01', 'SAFETY_BLOCKED', 1],
      ['row-2_02', 'SAFETY_BLOCKED', 1],
    ]);

    const retry = await call(services, 'batches.retryFailed', { id: root.id });
    expect(retry.batch).toMatchObject({ parentBatchId: root.id, rootBatchId: root.id, itemCount: 2 });
    const child = await waitUntil(
      () => batchOf(services, retry.batch.id),
      (b) => b.terminal,
    );
    expect(child.status).toBe('failed'); // the prompt still says [fail]
    const submission = services.batches.submissions.get(
      services.batches.store.get('sandbox', child.id)!.submissionId!,
    )!;
    expect(submission.draft.items).toEqual([{ ...d.items[1], outputCount: 2 }]);
    expect(submission.draft.sharedReferenceIds).toEqual([shared.id]);
    expect(submission.draft.name).toBe(`${d.name} (retry)`);

    const again = await call(services, 'batches.retryFailed', { id: child.id });
    expect(again.batch).toMatchObject({ parentBatchId: root.id, rootBatchId: root.id });
    const family = (await call(services, 'batches.list')).filter((b: BatchView) => b.rootBatchId === root.id);
    expect(family.map((b: BatchView) => b.id).sort()).toEqual([root.id, child.id, again.batch.id].sort());
  });

  it('cancel keeps polling until the batch is terminal', async () => {
    const slow = await startServices({ sandboxTimeScale: 40 });
    const created = await submit(slow, draft(['to cancel 1', 'to cancel 2']));
    await waitUntil(
      () => batchOf(slow, created.id),
      (b) => b.status === 'running',
    );
    const answer = await call(slow, 'batches.cancel', { id: created.id });
    expect(answer).toMatchObject({ status: 'running', cancelRequested: true });
    const end = await waitUntil(
      () => batchOf(slow, created.id),
      (b) => b.terminal,
    );
    expect(end.status).toBe('cancelled');
    expect(slow.batches.poller.isScheduled('sandbox', created.id)).toBe(false);
  });

  it('delete outputs, then a download is reported unavailable and local files stay', async () => {
    const created = await submit(services, draft(['keep me']));
    const done = await waitUntil(() => batchOf(services, created.id), downloaded);
    const deleted = await call(services, 'batches.deleteOutputs', { id: created.id });
    expect(deleted.status).toBe('output_deleted');
    const folder = join((await call(services, 'settings.get')).libraryDir, done.download.folder!);
    await services.batches.downloader.enqueue('sandbox', created.id);
    const after = await batchOf(services, created.id);
    expect(after.download).toMatchObject({
      state: 'unavailable',
      error: { code: 'BATCH_IMAGE_OUTPUT_DELETED', httpStatus: 410 },
    });
    expect(existsSync(join(folder, 'images', 'row-1.png'))).toBe(true);
  });

  it('delete record: only terminal batches; local files stay unless asked', async () => {
    const created = await submit(services, draft(['record']));
    const early = await services.dispatch('batches.deleteRecord', { id: created.id });
    expect(!early.ok && early.error.code).toBe('BATCH_IMAGE_RECORD_DELETE_NOT_READY');
    const done = await waitUntil(() => batchOf(services, created.id), downloaded);
    const folder = join((await call(services, 'settings.get')).libraryDir, done.download.folder!);
    await call(services, 'batches.deleteRecord', { id: created.id });
    expect((await call(services, 'batches.list')).some((b: BatchView) => b.id === created.id)).toBe(false);
    expect(existsSync(folder)).toBe(true);
    const gone = await fetch(`${services.sandbox.url}/v1/images/batches/${created.id}`, {
      headers: { authorization: 'Bearer sk-sandbox-alice' },
    });
    expect(gone.status).toBe(404);

    const other = await submit(services, draft(['record 2']));
    const otherDone = await waitUntil(() => batchOf(services, other.id), downloaded);
    await call(services, 'batches.deleteRecord', { id: other.id, deleteLocalFiles: true });
    expect(
      existsSync(join((await call(services, 'settings.get')).libraryDir, otherDone.download.folder!)),
    ).toBe(false);
  });

  it('falls back to per-item downloads when the ZIP keeps arriving truncated', async () => {
    services.sandbox.faults.set('truncate=1');
    try {
      const created = await submit(services, draft(['a', 'b', { prompt: 'c [fail:PROVIDER_ITEM_FAILED]' }]));
      const done = await waitUntil(() => batchOf(services, created.id), downloaded);
      expect(done.download).toMatchObject({ state: 'done', source: 'items', images: 2 });
      const folder = join((await call(services, 'settings.get')).libraryDir, done.download.folder!);
      expect(readdirSync(join(folder, 'images')).sort()).toEqual(['row-1.png', 'row-2.png']);
      expect(JSON.parse(readFileSync(join(folder, 'errors.json'), 'utf8'))).toEqual([
        { custom_id: 'row-3', code: 'PROVIDER_ITEM_FAILED', message: expect.any(String) },
      ]);
    } finally {
      services.sandbox.faults.set('');
    }
  });

  it('syncs batches created elsewhere with the same key: shown without prompts, and downloaded', async () => {
    const res = await fetch(`${services.sandbox.url}/v1/images/batches`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-sandbox-alice', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: FLASH,
        task_name: 'made by a script',
        items: [{ custom_id: 'x', prompt: 'from elsewhere' }],
      }),
    });
    const elsewhere = (await res.json()) as { id: string };
    const result = await call(services, 'batches.sync', {});
    expect(result.added).toBeGreaterThanOrEqual(1);
    const found = await waitUntil(() => batchOf(services, elsewhere.id), downloaded);
    expect(found).toMatchObject({
      origin: 'server',
      hasDraft: false,
      taskName: 'made by a script',
      download: { state: 'done' },
    });
    const record = JSON.parse(
      readFileSync(
        join((await call(services, 'settings.get')).libraryDir, found.download.folder!, 'batch.json'),
        'utf8',
      ),
    );
    expect(record.draft).toBeNull();
    expect(record.images[0]).toMatchObject({ customId: 'x', prompt: 'from elsewhere' });
    const retry = await services.dispatch('batches.retryFailed', { id: elsewhere.id });
    expect(!retry.ok && retry.error.code).toBe('STUDIO_NO_DRAFT');
  });

  it('adds up costs per profile and day', async () => {
    const costs = await call(services, 'batches.costs');
    const list: BatchView[] = await call(services, 'batches.list');
    expect(costs.totals.batches).toBe(list.length);
    const actual = list.reduce((sum, b) => sum + (b.actualCost ?? 0), 0);
    expect(costs.totals.actual).toBeCloseTo(actual, 6);
    expect(costs.days[0].day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('restarts', () => {
  it('tracked batches and their schedule survive a restart, and polling resumes', async () => {
    const first = await startServices({ sandboxTimeScale: 60, keepOpen: true });
    const created = await submit(first, draft(['survives a restart']));
    const dataDir = first.dataDir;
    await first.close();
    const second = await startServices({ sandboxTimeScale: 60, dataDir });
    const before = await batchOf(second, created.id);
    expect(before.id).toBe(created.id);
    const done = await waitUntil(() => batchOf(second, created.id), downloaded, 60_000);
    expect(done.download.state).toBe('done');
  });
});
