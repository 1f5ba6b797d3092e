import { describe, expect, it } from 'vitest';
import { batchDisplayState } from '../../src-shared/batch-display-state';
import type { BatchView, SubmissionView } from '../../src-shared/batch-view';
import type { Draft } from '../../src-shared/draft';
import { call, startServices, waitUntil } from './helpers/studio-fixture';
import { FLASH } from './helpers/prompts-draft';

// The studio against the harsher deployed gateways of gateway-notes.md, over real HTTP.
const KEY = 'sk-sandbox-alice';
const services = await startServices();

const events: { event: string; payload: any }[] = [];
services.events.subscribe((event, payload) => events.push({ event, payload }));

let n = 0;
function draft(items = 3): Draft {
  n++;
  return {
    id: `harsh-${n}`,
    name: `Harsh ${n}`,
    model: FLASH,
    items: Array.from({ length: items }, (_, i) => ({
      customId: `h${n}-${i + 1}`,
      prompt: `harsh ${n} prompt ${i + 1}`,
      outputCount: 1,
      referenceIds: [],
    })),
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png',
  };
}

function submissionPhases(taskName: string): string[] {
  return events
    .filter((e) => e.event === 'submission.updated' && (e.payload as SubmissionView).taskName === taskName)
    .map((e) => (e.payload as SubmissionView).state);
}

async function gateway(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(services.sandbox.url + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.status === 204 ? undefined : res.json();
}

const batch = (id: string): Promise<BatchView> => call(services, 'batches.get', { id });

describe('submissions, phase by phase', () => {
  it('shows a submission whose answer is late at once, as sending, and ends with created', async () => {
    services.sandbox.faults.set('latecreate=#1,late_ms=1500');
    const d = draft();
    let answered = false;
    const submit = services.dispatch('batches.submit', { draft: d }).then((r) => {
      answered = true;
      return r;
    });
    const listed = await waitUntil(
      () => call(services, 'batches.submissions') as Promise<SubmissionView[]>,
      (list) => list.some((s) => s.taskName === d.name),
    );
    expect(answered).toBe(false);
    expect(listed.find((s) => s.taskName === d.name)?.state).toBe('sending');
    expect(submissionPhases(d.name)).toContain('sending');
    const result = await submit;
    expect(result.ok).toBe(true);
    expect(submissionPhases(d.name).at(-1)).toBe('created');
  });

  it('says "no answer yet" and resends with the same key: one batch on the server', async () => {
    services.sandbox.faults.set('lostcreate=#1');
    const d = draft();
    const result = await services.dispatch('batches.submit', { draft: d });
    expect(result.ok).toBe(true);
    const phases = submissionPhases(d.name);
    expect(phases.indexOf('unknown')).toBeGreaterThan(-1);
    expect(phases.at(-1)).toBe('created');
    const list = await gateway('GET', `/v1/images/batches?limit=100&task_name=${encodeURIComponent(d.name)}`);
    expect(list.data).toHaveLength(1);
  });

  it('ends as refused, with the code and status, on a 503 BATCH_IMAGE_NOT_READY', async () => {
    services.sandbox.faults.set('not_ready=#1');
    const d = draft();
    const result = await services.dispatch('batches.submit', { draft: d });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'BATCH_IMAGE_NOT_READY', httpStatus: 503 });
    const last = events.filter(
      (e) => e.event === 'submission.updated' && (e.payload as SubmissionView).taskName === d.name,
    );
    expect(last.at(-1)?.payload).toMatchObject({ state: 'failed', error: { code: 'BATCH_IMAGE_NOT_READY' } });
  });
});

describe('a batch the server loses', () => {
  it('reads as gone, not running, and its detail lists the saved prompts', async () => {
    services.sandbox.faults.set('');
    const d = draft(4);
    const result = await call(services, 'batches.submit', { draft: d });
    const id = result.batch.id as string;
    await fetch(`${services.sandbox.url}/_sandbox/batches/${id}/vanish`, { method: 'POST' });
    const gone = await waitUntil(
      () => batch(id),
      (b) => b.goneOnServer,
    );
    expect(batchDisplayState(gone).kind).toBe(gone.download.folder ? 'in-library' : 'gone');
    const pushed = events.filter((e) => e.event === 'batch.updated' && e.payload.id === id).at(-1);
    expect(pushed?.payload.goneOnServer).toBe(true);
    const items = await call(services, 'batches.items', { id });
    expect(items.map((i: any) => i.prompt)).toEqual(d.items.map((i) => i.prompt));
  });
});

describe('Refresh from server', () => {
  it('adds a batch made elsewhere with the same key and downloads it, and marks a deleted one gone', async () => {
    services.sandbox.faults.set('');
    // One of ours, finished and in the library, then deleted on the server.
    const ours = await call(services, 'batches.submit', { draft: draft(2) });
    const oursId = ours.batch.id as string;
    await waitUntil(
      () => batch(oursId),
      (b) => b.download.state === 'done',
    );
    await fetch(`${services.sandbox.url}/_sandbox/batches/${oursId}/vanish`, { method: 'POST' });
    // One made by another client of the same account, completed before the studio hears of it.
    const elsewhere = await gateway('POST', '/v1/images/batches', {
      model: FLASH,
      task_name: 'Made elsewhere',
      items: [{ custom_id: 'e1', prompt: 'elsewhere one' }],
    });
    await waitUntil(
      () => gateway('GET', `/v1/images/batches/${elsewhere.id}`),
      (b) => b.status === 'completed',
    );

    const sync = await call(services, 'batches.sync', {});
    expect(sync.added).toBeGreaterThanOrEqual(1);
    expect(sync.gone).toBeGreaterThanOrEqual(1);
    const lost = await batch(oursId);
    expect(lost.goneOnServer).toBe(true);
    // Its folder is still there: in the library it stays.
    expect(batchDisplayState(lost).kind).toBe('in-library');
    const found = await waitUntil(
      () => batch(elsewhere.id),
      (b) => b.download.state === 'done',
    );
    expect(batchDisplayState(found)).toMatchObject({ kind: 'in-library', images: 1 });
  });
});

describe('a session ended while a create waited for its answer', () => {
  it('resends with the same key next session, says so, and downloads the one batch', async () => {
    const first = await startServices({ keepOpen: true, sandbox: { faults: 'latecreate=#1,late_ms=60000' } });
    const d = draft(2);
    void first.dispatch('batches.submit', { draft: d });
    await waitUntil(
      () => call(first, 'batches.submissions') as Promise<SubmissionView[]>,
      (list) => list.some((s) => s.taskName === d.name && s.state === 'sending'),
    );
    // The gateway made the batch; its answer is still on its way when the session ends.
    await waitUntil(
      () => first.sandbox.inspect().accounts[KEY]!.batches,
      (count) => count === 1,
    );
    await first.close();

    const next = await startServices({ dataDir: first.dataDir });
    const seen: SubmissionView[] = [];
    next.events.subscribe((event, payload) => {
      if (event === 'submission.updated') seen.push(payload as SubmissionView);
    });
    const batches = await waitUntil(
      () => call(next, 'batches.list') as Promise<BatchView[]>,
      (list) => list.length === 1 && list[0]!.download.state === 'done',
    );
    expect(batches[0]!.taskName).toBe(d.name);
    expect(next.sandbox.inspect().accounts[KEY]!.batches).toBe(1);
    const resumed = await waitUntil(
      () => next.sends.submissionsList().concat(seen),
      (list) => list.some((s) => s.resumed),
    );
    expect(resumed.find((s) => s.resumed)?.taskName).toBe(d.name);
  });
});

describe('download progress', () => {
  it('says downloading, not verifying, while the item-by-item fallback runs after a cut ZIP', async () => {
    services.sandbox.faults.set('truncate=#2');
    const result = await call(services, 'batches.submit', { draft: draft(3) });
    const id = result.batch.id as string;
    const done = await waitUntil(
      () => batch(id),
      (b) => b.download.state === 'done' || b.download.state === 'failed',
    );
    expect(done.download).toMatchObject({ state: 'done', source: 'items', images: 3 });
    const views = events
      .filter((e) => e.event === 'batch.updated' && e.payload.id === id)
      .map((e) => e.payload);
    const fallback = views.findIndex((v) => v.download.source === 'items');
    expect(fallback).toBeGreaterThan(-1);
    expect(batchDisplayState(views[fallback]).kind).toBe('downloading');
    const items = events.filter(
      (e) => e.event === 'download.progress' && e.payload.batchId === id && e.payload.phase === 'items',
    );
    expect(items.at(-1)?.payload).toMatchObject({ images: 3, imagesTotal: 3 });
  });

  it('arrives in order of phase, ending with done, never more than a few per batch for a small batch', async () => {
    services.sandbox.faults.set('');
    const result = await call(services, 'batches.submit', { draft: draft(6) });
    const id = result.batch.id as string;
    await waitUntil(
      () => batch(id),
      (b) => b.download.state === 'done',
    );
    await waitUntil(
      () => events.filter((e) => e.event === 'download.progress' && e.payload.batchId === id),
      (list) => list.at(-1)?.payload.phase === 'done',
    );
    const states = events
      .filter((e) => e.event === 'batch.updated' && e.payload.id === id)
      .map((e) => batchDisplayState(e.payload).kind);
    // Waiting for the slot, then downloading, then verifying, then in the library, in that order.
    const order = ['waiting-slot', 'downloading', 'verifying', 'in-library'];
    const firsts = order.map((k) => states.indexOf(k as never));
    expect(firsts.every((i) => i >= 0)).toBe(true);
    expect([...firsts].sort((a, b) => a - b)).toEqual(firsts);
  });
});
