import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BatchView } from '../../src-shared/batch-view';
import type { Draft } from '../../src-shared/draft';
import { draftFingerprint } from '../../src-shared/draft-fingerprint';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, waitUntil, type TestServices } from './helpers/studio-fixture';

function draft(id: string, prompts: string[], extra: Partial<Draft> = {}): Draft {
  return { ...promptsDraft(id, `Trust ${id}`, prompts, 'row-'), ...extra };
}

async function submit(s: TestServices, d: Draft): Promise<BatchView> {
  const result = await call(s, 'batches.submit', { draft: d });
  expect(result.batch).toBeDefined();
  return result.batch;
}

describe('a draft already sent is known by its content, across a restart', () => {
  it('answers when and as what the same content was sent, and nothing for other content', async () => {
    const first = await startServices({ keepOpen: true });
    const d = draft('mugs', ['A mug on linen', 'A mug on oak']);
    const fingerprint = draftFingerprint(d);
    expect(await call(first, 'batches.lastSent', { fingerprint })).toBeNull();

    const batch = await submit(first, d);
    const sent = await call(first, 'batches.lastSent', { fingerprint });
    expect(sent).toMatchObject({ state: 'created', batchId: batch.id, taskName: 'Trust mugs' });

    // Renaming or re-numbering rows buys the same images: still the same draft.
    const renamed = {
      ...d,
      id: 'other',
      name: 'Renamed',
      items: d.items.map((i) => ({ ...i, customId: '' })),
    };
    expect(draftFingerprint(renamed)).toBe(fingerprint);
    // Another prompt, count or model is another order.
    const changed = { ...d, items: [{ ...d.items[0]!, outputCount: 2 }, d.items[1]!] };
    expect(await call(first, 'batches.lastSent', { fingerprint: draftFingerprint(changed) })).toBeNull();
    await first.close();

    const again = await startServices({ dataDir: first.dataDir });
    expect(await call(again, 'batches.lastSent', { fingerprint })).toMatchObject({ batchId: batch.id });
  });

  it('a refused submission bought nothing and is not reported as sent', async () => {
    const s = await startServices({ sandbox: { faults: 'submit_failed=#1' } });
    const d = draft('refused', ['A refused mug']);
    const result = await s.dispatch('batches.submit', { draft: d });
    expect(result.ok).toBe(false);
    expect(await call(s, 'batches.lastSent', { fingerprint: draftFingerprint(d) })).toBeNull();
  });
});

describe('a cancelled batch', () => {
  it('shows its unfinished items as cancelled and costs nothing', async () => {
    // At real speed the batch stays queued long enough to be cancelled before it runs.
    const s = await startServices({ sandboxTimeScale: 1 });
    await call(s, 'settings.update', { autoDownload: false });
    const batch = await submit(s, draft('cancel', ['one to cancel', 'two to cancel']));
    expect((await call(s, 'batches.costs')).totals.held).toBeGreaterThan(0);

    const cancelled = await call(s, 'batches.cancel', { id: batch.id });
    expect(cancelled.status).toBe('cancelled');
    const items = await call(s, 'batches.items', { id: batch.id });
    expect(items.map((i: { status: string }) => i.status)).toEqual(['cancelled', 'cancelled']);

    const costs = await call(s, 'batches.costs');
    expect(costs.totals).toMatchObject({ batches: 1, estimated: 0, held: 0, actual: 0 });
  });
});

/**
 * A completed batch whose first image the gateway damages (`damage` gets its bytes), with both ZIP
 * attempts cut short so the item-by-item fallback runs; resolves with the first failed download.
 */
async function downloadWithDamagedImage(id: string, prompts: string[], damage: (whole: Buffer) => Buffer) {
  const s = await startServices();
  await call(s, 'settings.update', { autoDownload: false });
  const batch = await submit(s, draft(id, prompts));
  await waitUntil(
    () => call(s, 'batches.get', { id: batch.id }),
    (b: BatchView) => b.status === 'completed',
  );
  const blob = `outputs/${batch.id}/${createHash('sha1').update('row-1').digest('hex')}.png`;
  s.sandbox.store.blobs.put(blob, damage(s.sandbox.store.blobs.get(blob)!));
  s.sandbox.faults.set('truncate=#2');

  const failures: BatchView[] = [];
  const off = s.events.subscribe((event, payload: any) => {
    if (event === 'batch.updated' && payload.id === batch.id && payload.download.state === 'failed')
      failures.push(payload);
  });
  await call(s, 'batches.download', { id: batch.id });
  await waitUntil(
    () => failures.length,
    (n) => n > 0,
  );
  off();
  return { s, batch, failed: failures[0]!.download };
}

describe('a download whose ZIP and fallback both fail', () => {
  it('keeps both reasons on the batch', async () => {
    // The gateway's copy of one image is damaged, and its ZIPs arrive cut short.
    const { failed } = await downloadWithDamagedImage(
      'broken',
      ['A mug whose image breaks', 'A fine mug'],
      () => Buffer.from('this is not an image'),
    );
    expect(failed.zipError?.code).toMatch(/ZIP/);
    expect(failed.error?.code).toBe('STUDIO_IMAGE_INVALID');
  });

  it('never keeps an image that starts like a PNG and breaks off, fetched item by item', async () => {
    // The gateway's copy of one image lost its second half: the signature is still right.
    const { s, batch, failed } = await downloadWithDamagedImage(
      'cut',
      ['A mug cut short', 'A whole mug'],
      (whole) => whole.subarray(0, Math.floor(whole.length / 2)),
    );
    expect(failed.error?.code).toBe('STUDIO_IMAGE_INVALID');
    const shown = await call(s, 'library.query', {});
    expect(shown.items.filter((i: any) => i.batchId === batch.id)).toHaveLength(0);
  });
});

describe('switching the active profile', () => {
  it('batches, costs and realtime jobs follow the profile; the old batch is not found, by the studio', async () => {
    const s = await startServices();
    const batch = await submit(s, draft('alice', ['Alice’s mug']));
    await call(s, 'realtime.generate', { prompt: 'Alice’s teapot', model: 'imgvendor-3.1-flash-image' });
    expect(await call(s, 'realtime.jobs')).toHaveLength(1);

    const info = await call(s, 'app.info');
    const bob = await call(s, 'profiles.save', {
      name: 'Bob',
      baseUrl: info.sandboxUrl,
      gatewayKey: 'sk-sandbox-bob',
    });
    await call(s, 'profiles.activate', { id: bob.id });
    expect(await call(s, 'batches.list')).toEqual([]);
    expect((await call(s, 'batches.costs')).totals.batches).toBe(0);
    expect(await call(s, 'realtime.jobs')).toEqual([]);
    const opened = await s.dispatch('batches.get', { id: batch.id });
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.error).toMatchObject({ code: 'STUDIO_BATCH_NOT_FOUND', source: 'studio' });
  });
});
