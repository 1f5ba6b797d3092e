import { describe, expect, it } from 'vitest';
import {
  ALICE,
  FLASH,
  PRO,
  call,
  createBatch,
  expectError,
  items,
  pngOf,
  startSandbox,
  waitForStatus,
} from './harness';

const sandbox = await startSandbox();
const MiB = 1024 * 1024;

describe('batch models', () => {
  it('lists only models with batch pricing and execution resources', async () => {
    const { status, body } = await call(sandbox.url, 'GET', '/v1/images/batches/models', { key: ALICE });
    expect(status).toBe(200);
    expect(body.object).toBe('list');
    expect(body.data).toEqual([
      { id: FLASH, object: 'image.batch.model' },
      { id: PRO, object: 'image.batch.model' },
    ]);
  });
});

describe('batch creation', () => {
  it('answers 200 with a queued batch object, expanding output_count with _01, _02 ids', async () => {
    const answer = await createBatch(sandbox, {
      items: [
        { custom_id: 'fox', prompt: 'a fox', output_count: 2 },
        { custom_id: 'owl', prompt: 'an owl' },
      ],
    });
    expect(answer.status).toBe(200);
    const batch = answer.body;
    expect(batch).toMatchObject({
      object: 'image.batch',
      task_name: 'test batch',
      status: 'queued',
      model: FLASH,
      item_count: 3,
      success_count: 0,
      fail_count: 0,
      actual_cost: null,
      settled_at: null,
    });
    expect(batch.id).toMatch(/^imgbatch_[0-9a-f]{32}$/);
    expect(batch.created_at).toBeGreaterThan(1_700_000_000);
    expect(batch.submitted_at).toBeGreaterThanOrEqual(batch.created_at);
    const list = await call(sandbox.url, 'GET', `/v1/images/batches/${batch.id}/items`, { key: ALICE });
    expect(list.body.data.map((i: any) => i.custom_id)).toEqual(['fox_01', 'fox_02', 'owl']);
    expect(list.body.data.every((i: any) => i.status === 'pending' && i.image_count === 0)).toBe(true);
  });

  it('fills in custom_id and task_name when they are omitted', async () => {
    const answer = await call(sandbox.url, 'POST', '/v1/images/batches', {
      key: ALICE,
      body: { model: FLASH, items: [{ prompt: 'one' }, { prompt: 'two' }] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.task_name).toEqual(expect.any(String));
    expect(answer.body.task_name.length).toBeGreaterThan(0);
    const list = await call(sandbox.url, 'GET', `/v1/images/batches/${answer.body.id}/items`, { key: ALICE });
    const ids = list.body.data.map((i: any) => i.custom_id);
    expect(new Set(ids).size).toBe(2);
  });

  it('truncates an over-long task_name', async () => {
    const answer = await createBatch(sandbox, { task_name: 'n'.repeat(1000), items: items(1) });
    expect(answer.status).toBe(200);
    expect(answer.body.task_name.length).toBe(sandbox.config.limits.maxTaskNameChars);
  });

  it('answers 202 with Location and Retry-After when the gateway variant says so', async () => {
    const newer = await startSandbox({ config: { variant: { createStatus: 202 } } });
    const answer = await createBatch(newer, { items: items(1) });
    expect(answer.status).toBe(202);
    expect(answer.headers.get('location')).toBe(`/v1/images/batches/${answer.body.id}`);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.body.status).toBe('queued');
  });

  it('accepts a gzip-encoded body', async () => {
    const { gzipSync } = await import('node:zlib');
    const raw = gzipSync(JSON.stringify({ model: FLASH, task_name: 'gz', items: items(2) }));
    const answer = await call(sandbox.url, 'POST', '/v1/images/batches', {
      key: ALICE,
      raw,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.item_count).toBe(2);
  });
});

describe('the error table of the batch API', () => {
  it('BATCH_IMAGE_DISABLED 404 when the feature is off', async () => {
    const off = await startSandbox({ config: { batchEnabled: false } });
    expectError(await createBatch(off, { items: items(1) }), 404, 'BATCH_IMAGE_DISABLED');
    expectError(
      await call(off.url, 'GET', '/v1/images/batches/models', { key: ALICE }),
      404,
      'BATCH_IMAGE_DISABLED',
    );
  });

  it('BATCH_IMAGE_GROUP_DISABLED 403 for a key whose group cannot batch', async () => {
    expectError(
      await createBatch(sandbox, { items: items(1) }, 'sk-sandbox-nobatch'),
      403,
      'BATCH_IMAGE_GROUP_DISABLED',
    );
  });

  it('BATCH_IMAGE_NO_ACCOUNT_AVAILABLE 502 for a model without execution resources', async () => {
    expectError(
      await createBatch(sandbox, { model: 'imgvendor-3.1-flash-image-preview', items: items(1) }),
      502,
      'BATCH_IMAGE_NO_ACCOUNT_AVAILABLE',
    );
  });

  it('BATCH_IMAGE_SETTLEMENT_PRICING_MISSING 400 for a model without pricing', async () => {
    expectError(
      await createBatch(sandbox, { model: 'imgvendor-3.1-flash-lite-image', items: items(1) }),
      400,
      'BATCH_IMAGE_SETTLEMENT_PRICING_MISSING',
    );
  });

  it('BATCH_IMAGE_INVALID_MODEL 400 with no model, or a model of another family', async () => {
    const missing = await call(sandbox.url, 'POST', '/v1/images/batches', {
      key: ALICE,
      body: { items: items(1) },
    });
    expectError(missing, 400, 'BATCH_IMAGE_INVALID_MODEL');
    expectError(
      await createBatch(sandbox, { model: 'gpt-image-1', items: items(1) }),
      400,
      'BATCH_IMAGE_INVALID_MODEL',
    );
  });

  it('BATCH_IMAGE_INVALID_ITEMS 400 for a size other than 1K, and for bad items', async () => {
    expectError(
      await createBatch(sandbox, { image_size: '2K', items: items(1) }),
      400,
      'BATCH_IMAGE_INVALID_ITEMS',
    );
    expectError(await createBatch(sandbox, { items: [] }), 400, 'BATCH_IMAGE_INVALID_ITEMS');
    expectError(await createBatch(sandbox, { items: [{ prompt: '' }] }), 400, 'BATCH_IMAGE_INVALID_ITEMS');
    expectError(
      await createBatch(sandbox, { items: [{ prompt: 'x', output_count: 5 }] }),
      400,
      'BATCH_IMAGE_INVALID_ITEMS',
    );
    expectError(
      await createBatch(sandbox, { items: [{ prompt: 'x', output_count: 0 }] }),
      400,
      'BATCH_IMAGE_INVALID_ITEMS',
    );
    expectError(await createBatch(sandbox, { items: items(201) }), 400, 'BATCH_IMAGE_INVALID_ITEMS');
    expectError(
      await createBatch(sandbox, { aspect_ratio: '7:3', items: items(1) }),
      400,
      'BATCH_IMAGE_INVALID_ITEMS',
    );
    expectError(
      await createBatch(sandbox, { response_mime_type: 'image/gif', items: items(1) }),
      400,
      'BATCH_IMAGE_INVALID_ITEMS',
    );
    const metadata = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    expectError(await createBatch(sandbox, { metadata, items: items(1) }), 400, 'BATCH_IMAGE_INVALID_ITEMS');
    expectError(
      await createBatch(sandbox, { metadata: { a: 1 }, items: items(1) }),
      400,
      'BATCH_IMAGE_INVALID_ITEMS',
    );
  });

  it('BATCH_IMAGE_DUPLICATE_CUSTOM_ID 400, also when expansion collides with a given id', async () => {
    const dup = [
      { custom_id: 'a', prompt: 'x' },
      { custom_id: 'a', prompt: 'y' },
    ];
    expectError(await createBatch(sandbox, { items: dup }), 400, 'BATCH_IMAGE_DUPLICATE_CUSTOM_ID');
    const collide = [
      { custom_id: 'a', prompt: 'x', output_count: 2 },
      { custom_id: 'a_01', prompt: 'y' },
    ];
    expectError(await createBatch(sandbox, { items: collide }), 400, 'BATCH_IMAGE_DUPLICATE_CUSTOM_ID');
  });

  it('BATCH_IMAGE_PROMPT_TOO_LONG 400 counts UTF-8 bytes, not characters', async () => {
    const ascii = 'a'.repeat(8000);
    expect((await createBatch(sandbox, { items: [{ prompt: ascii }] })).status).toBe(200);
    expectError(
      await createBatch(sandbox, { items: [{ prompt: ascii + 'a' }] }),
      400,
      'BATCH_IMAGE_PROMPT_TOO_LONG',
    );
    const cjk = '狐'.repeat(2667); // 8001 bytes in 2667 characters
    expectError(await createBatch(sandbox, { items: [{ prompt: cjk }] }), 400, 'BATCH_IMAGE_PROMPT_TOO_LONG');
  });

  it('BATCH_IMAGE_TOO_MANY_OUTPUT_IMAGES 400 after expansion', async () => {
    const fifty = items(50).map((i) => ({ ...i, output_count: 4 }));
    expect((await createBatch(sandbox, { items: fifty })).status).toBe(200);
    const more = [...fifty, { custom_id: 'extra', prompt: 'one more' }];
    expectError(await createBatch(sandbox, { items: more }), 400, 'BATCH_IMAGE_TOO_MANY_OUTPUT_IMAGES');
  });

  it('BATCH_IMAGE_INVALID_REFERENCE_IMAGE 400 for type, encoding, content and storage references', async () => {
    const png = (await pngOf()).toString('base64');
    const ref = (r: object) => ({ items: [{ prompt: 'x', reference_images: [r] }] });
    expect((await createBatch(sandbox, ref({ mime_type: 'image/png', data: png }))).status).toBe(200);
    const bad = [
      { mime_type: 'image/gif', data: png },
      { mime_type: 'image/png', data: `data:image/png;base64,${png}` },
      { mime_type: 'image/png', data: '***not base64***' },
      { mime_type: 'image/png', data: Buffer.from('just text, no image').toString('base64') },
      { mime_type: 'image/jpeg', data: png },
      { mime_type: 'image/png', file_uri: 'gs://bucket/a.png' },
      { mime_type: 'image/png' },
    ];
    for (const r of bad)
      expectError(await createBatch(sandbox, ref(r)), 400, 'BATCH_IMAGE_INVALID_REFERENCE_IMAGE');
  });

  it('BATCH_IMAGE_INVALID_REFERENCE_IMAGE 400 for one image over 10 MiB', async () => {
    const big = Buffer.alloc(10 * MiB + 16);
    (await pngOf()).copy(big);
    const answer = await createBatch(sandbox, {
      items: [{ prompt: 'x', reference_images: [{ mime_type: 'image/png', data: big.toString('base64') }] }],
    });
    expectError(answer, 400, 'BATCH_IMAGE_INVALID_REFERENCE_IMAGE');
  });

  it('reference counts follow the model family: 3 for flash, 14 for pro', async () => {
    const png = (await pngOf()).toString('base64');
    const refs = (n: number) => Array.from({ length: n }, () => ({ mime_type: 'image/png', data: png }));
    expect((await createBatch(sandbox, { items: [{ prompt: 'x', reference_images: refs(3) }] })).status).toBe(
      200,
    );
    expectError(
      await createBatch(sandbox, { items: [{ prompt: 'x', reference_images: refs(4) }] }),
      400,
      'BATCH_IMAGE_TOO_MANY_REFERENCE_IMAGES',
    );
    expect(
      (await createBatch(sandbox, { model: PRO, items: [{ prompt: 'x', reference_images: refs(14) }] }))
        .status,
    ).toBe(200);
    expectError(
      await createBatch(sandbox, { model: PRO, items: [{ prompt: 'x', reference_images: refs(15) }] }),
      400,
      'BATCH_IMAGE_TOO_MANY_REFERENCE_IMAGES',
    );
  });

  it('reference totals per job are counted after expansion', async () => {
    const tight = await startSandbox({
      config: { limits: { maxRefBytesPerJob: 4000, maxRefImagesPerJob: 6 } },
    });
    const png = (await pngOf()).toString('base64');
    const ref = { mime_type: 'image/png', data: png };
    expectError(
      await createBatch(tight, { items: [{ prompt: 'x', output_count: 4, reference_images: [ref, ref] }] }),
      400,
      'BATCH_IMAGE_TOO_MANY_REFERENCE_IMAGES',
    );
    const bigger = (await pngOf(600, 600, '#aa3311')).toString('base64');
    expectError(
      await createBatch(tight, {
        items: [
          { prompt: 'x', output_count: 2, reference_images: [{ mime_type: 'image/png', data: bigger }] },
        ],
      }),
      400,
      'BATCH_IMAGE_REFERENCE_IMAGES_TOO_LARGE',
    );
  });

  it('BATCH_IMAGE_INSUFFICIENT_BALANCE 402 when the hold does not fit', async () => {
    expectError(
      await createBatch(sandbox, { items: items(1) }, 'sk-sandbox-poor'),
      402,
      'BATCH_IMAGE_INSUFFICIENT_BALANCE',
    );
    expect(sandbox.inspect().accounts['sk-sandbox-poor']!.holdsPlaced).toBe(0);
  });

  it('BATCH_IMAGE_PROVIDER_SUBMIT_FAILED, QUEUE_FAILED and BILLING_HOLD_FAILED 502 from the fault switch', async () => {
    for (const [fault, code] of [
      ['submit_failed', 'BATCH_IMAGE_PROVIDER_SUBMIT_FAILED'],
      ['queue_failed', 'BATCH_IMAGE_QUEUE_FAILED'],
      ['hold_failed', 'BATCH_IMAGE_BILLING_HOLD_FAILED'],
    ] as const) {
      const faulty = await startSandbox({ faults: `${fault}=1` });
      expectError(await createBatch(faulty, { items: items(1) }), 502, code);
      expect(faulty.inspect().accounts[ALICE]!.batchesCreated).toBe(0);
    }
  });

  it('BATCH_IMAGE_REQUEST_TOO_LARGE 413 for a body over the limit', async () => {
    const small = await startSandbox({ config: { limits: { maxBodyBytes: 4096 } } });
    expectError(
      await createBatch(small, { items: [{ prompt: 'x'.repeat(5000) }] }),
      413,
      'BATCH_IMAGE_REQUEST_TOO_LARGE',
    );
  });
});

describe('billing', () => {
  it('estimates, holds, settles the successes and releases the rest', async () => {
    const billing = await startSandbox({ timeScale: 2000 });
    const start = billing.inspect().accounts[ALICE]!;
    const answer = await createBatch(billing, {
      items: [
        { custom_id: 'ok', prompt: 'fine', output_count: 3 },
        { custom_id: 'bad', prompt: 'will [fail:SAFETY_BLOCKED]' },
      ],
    });
    const price = 0.039; // flash unit price; group and account multipliers 1
    expect(answer.body.estimated_cost).toBeCloseTo(price * 0.5 * 4, 6);
    expect(answer.body.hold_amount).toBeCloseTo(price * 0.6 * 4, 6);
    const held = billing.inspect().accounts[ALICE]!;
    expect(held.held).toBeCloseTo(price * 0.6 * 4, 6);
    expect(held.balance).toBe(start.balance);

    const { batch } = await waitForStatus(billing, answer.body.id, ['completed']);
    expect(batch.success_count).toBe(3);
    expect(batch.fail_count).toBe(1);
    expect(batch.actual_cost).toBeCloseTo(price * 0.5 * 3, 6);
    expect(batch.settled_at).toBeGreaterThanOrEqual(batch.created_at);
    const settled = billing.inspect().accounts[ALICE]!;
    expect(settled.held).toBe(0);
    expect(settled.balance).toBeCloseTo(start.balance - price * 0.5 * 3, 6);
  });

  it('a batch whose items all fail ends failed with nothing charged', async () => {
    const billing = await startSandbox({ timeScale: 2000 });
    const start = billing.inspect().accounts[ALICE]!.balance;
    const answer = await createBatch(billing, {
      items: [{ prompt: '[fail]' }, { prompt: '[fail:INVALID_ARGUMENT]' }],
    });
    const { batch } = await waitForStatus(billing, answer.body.id, ['failed', 'completed']);
    expect(batch.status).toBe('failed');
    expect(batch.actual_cost).toBe(0);
    expect(billing.inspect().accounts[ALICE]!).toMatchObject({ balance: start, held: 0 });
  });

  it('a cancel before submission releases the hold', async () => {
    const slow = await startSandbox({ timeScale: 1 });
    const answer = await createBatch(slow, { items: items(4) });
    expect(slow.inspect().accounts[ALICE]!.held).toBeGreaterThan(0);
    const cancelled = await call(slow.url, 'POST', `/v1/images/batches/${answer.body.id}/cancel`, {
      key: ALICE,
    });
    expect(cancelled.body.status).toBe('cancelled');
    expect(slow.inspect().accounts[ALICE]!).toMatchObject({ held: 0, balance: 100 });
  });
});
