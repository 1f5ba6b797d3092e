import { describe, expect, it } from 'vitest';
import { ALICE, call, createBatch, items, startSandbox, waitForStatus } from './harness';

/** The deployed faults of gateway-notes.md that tests switch on one at a time. */
const sandbox = await startSandbox();

async function setFaults(spec: string): Promise<void> {
  const answer = await call(sandbox.url, 'POST', '/_sandbox/faults', { body: { spec } });
  expect(answer.status).toBe(200);
}

describe('create answered late', () => {
  it('makes the batch at once but answers only after late_ms; the key then finds it', async () => {
    await setFaults('latecreate=#1,late_ms=400');
    const headers = { 'idempotency-key': 'late-1' };
    let answered = false;
    const late = createBatch(sandbox, { items: items(2) }, ALICE, headers).then((a) => {
      answered = true;
      return a;
    });
    // Before the answer, the batch is already on the server's list.
    let listed: any[] = [];
    while (listed.length === 0 && !answered) {
      const list = await call(sandbox.url, 'GET', '/v1/images/batches?task_name=test batch', { key: ALICE });
      listed = list.body.data;
    }
    expect(answered).toBe(false);
    const answer = await late;
    expect(answer.status).toBe(200);
    expect(listed.map((b) => b.id)).toContain(answer.body.id);
    const again = await createBatch(sandbox, { items: items(2) }, ALICE, headers);
    expect(again.body.id).toBe(answer.body.id);
  });
});

describe('runtime not ready', () => {
  it('answers a create with 503 BATCH_IMAGE_NOT_READY in the API envelope, making nothing', async () => {
    await setFaults('not_ready=#1');
    const before = sandbox.inspect().accounts[ALICE]!.batches;
    const answer = await createBatch(sandbox, { items: items(1) });
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('BATCH_IMAGE_NOT_READY');
    expect(sandbox.inspect().accounts[ALICE]!.batches).toBe(before);
    const next = await createBatch(sandbox, { items: items(1) });
    expect(next.status).toBe(200);
  });

  it('is never chosen by all=R', async () => {
    await setFaults('all=1,slow_ms=1,seed=3');
    for (let i = 0; i < 40; i++) {
      try {
        const answer = await createBatch(sandbox, { items: items(1) });
        expect(answer.body?.error?.code).not.toBe('BATCH_IMAGE_NOT_READY');
      } catch {
        // a reset: fine
      }
    }
    await setFaults('');
  });
});

describe('admin faults under /_sandbox/batches', () => {
  it('vanish deletes a running batch record: GET and list answer as if it never was', async () => {
    await setFaults('');
    const { body } = await createBatch(sandbox, { items: items(3) });
    const vanish = await call(sandbox.url, 'POST', `/_sandbox/batches/${body.id}/vanish`);
    expect(vanish.status).toBe(200);
    const get = await call(sandbox.url, 'GET', `/v1/images/batches/${body.id}`, { key: ALICE });
    expect(get.status).toBe(404);
    expect(get.body.error.code).toBe('BATCH_IMAGE_NOT_FOUND');
    const list = await call(sandbox.url, 'GET', '/v1/images/batches?limit=100', { key: ALICE });
    expect(list.body.data.map((b: any) => b.id)).not.toContain(body.id);
    const twice = await call(sandbox.url, 'POST', `/_sandbox/batches/${body.id}/vanish`);
    expect(twice.status).toBe(404);
  });

  it('expire turns a completed batch output_deleted now, and refuses one still running', async () => {
    const { body } = await createBatch(sandbox, { items: items(2) });
    const early = await call(sandbox.url, 'POST', `/_sandbox/batches/${body.id}/expire`);
    expect(early.status).toBe(409);
    await waitForStatus(sandbox, body.id, ['completed']);
    const expire = await call(sandbox.url, 'POST', `/_sandbox/batches/${body.id}/expire`);
    expect(expire.body.status).toBe('output_deleted');
    const download = await call(sandbox.url, 'GET', `/v1/images/batches/${body.id}/download`, { key: ALICE });
    expect(download.status).toBe(410);
    expect(download.body.error.code).toBe('BATCH_IMAGE_OUTPUT_DELETED');
  });
});
