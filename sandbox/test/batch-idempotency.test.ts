import { describe, expect, it } from 'vitest';
import { ALICE, BOB, FLASH, call, createBatch, expectError, items, startSandbox } from './harness';

const sandbox = await startSandbox();

describe('idempotency', () => {
  it('the same key and body return the original batch with no second hold', async () => {
    const before = sandbox.inspect().accounts[BOB]!;
    const body = { task_name: 'idem', items: items(3) };
    const first = await createBatch(sandbox, body, BOB, { 'idempotency-key': 'idem-1' });
    const second = await createBatch(sandbox, body, BOB, { 'idempotency-key': 'idem-1' });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    const after = sandbox.inspect().accounts[BOB]!;
    expect(after.batchesCreated - before.batchesCreated).toBe(1);
    expect(after.holdsPlaced - before.holdsPlaced).toBe(1);
  });

  it('key order in the body does not make it a different body', async () => {
    const first = await call(sandbox.url, 'POST', '/v1/images/batches', {
      key: BOB,
      raw: `{"model":"${FLASH}","task_name":"order","items":[{"prompt":"p","custom_id":"c"}]}`,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'idem-order' },
    });
    const second = await call(sandbox.url, 'POST', '/v1/images/batches', {
      key: BOB,
      raw: `{"items":[{"custom_id":"c","prompt":"p"}],"task_name":"order","model":"${FLASH}"}`,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'idem-order' },
    });
    expect(second.body.id).toBe(first.body.id);
  });

  it('the same key with a different body is BATCH_IMAGE_IDEMPOTENCY_CONFLICT 409', async () => {
    await createBatch(sandbox, { task_name: 'a', items: items(1) }, BOB, { 'idempotency-key': 'idem-2' });
    expectError(
      await createBatch(sandbox, { task_name: 'b', items: items(1) }, BOB, { 'idempotency-key': 'idem-2' }),
      409,
      'BATCH_IMAGE_IDEMPOTENCY_CONFLICT',
    );
  });

  it('keys are per API key: another user may use the same Idempotency-Key', async () => {
    const body = { task_name: 'shared', items: items(1) };
    const a = await createBatch(sandbox, body, ALICE, { 'idempotency-key': 'idem-shared' });
    const b = await createBatch(sandbox, body, BOB, { 'idempotency-key': 'idem-shared' });
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('a definite error keeps its key: replaying returns the same failure', async () => {
    const body = { model: 'imgvendor-3.1-flash-lite-image', task_name: 'fails', items: items(1) };
    const first = await createBatch(sandbox, body, BOB, { 'idempotency-key': 'idem-err' });
    const replay = await createBatch(sandbox, body, BOB, { 'idempotency-key': 'idem-err' });
    expectError(first, 400, 'BATCH_IMAGE_SETTLEMENT_PRICING_MISSING');
    expectError(replay, 400, 'BATCH_IMAGE_SETTLEMENT_PRICING_MISSING');
  });

  it('a replay of a lost create returns the batch that was created', async () => {
    const lossy = await startSandbox({ faults: 'lostcreate=#1' });
    const body = { task_name: 'lost', items: items(2) };
    await expect(createBatch(lossy, body, ALICE, { 'idempotency-key': 'idem-lost' })).rejects.toThrow();
    expect(lossy.inspect().accounts[ALICE]!.batchesCreated).toBe(1);
    const replay = await createBatch(lossy, body, ALICE, { 'idempotency-key': 'idem-lost' });
    expect(replay.status).toBe(200);
    expect(lossy.inspect().accounts[ALICE]!.batchesCreated).toBe(1);
    expect(lossy.inspect().accounts[ALICE]!.holdsPlaced).toBe(1);
  });

  it('an Idempotency-Key over 255 bytes is refused', async () => {
    const answer = await createBatch(sandbox, { items: items(1) }, BOB, {
      'idempotency-key': 'k'.repeat(256),
    });
    expectError(answer, 400, 'BATCH_IMAGE_INVALID_ITEMS');
  });
});
