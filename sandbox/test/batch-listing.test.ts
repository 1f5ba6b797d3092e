import { describe, expect, it } from 'vitest';
import { ALICE, BOB, call, createBatch, items, startSandbox, waitForStatus } from './harness';

describe('batch list', () => {
  it('pages by offset cursor, newest first, has_more only telling that a page was full', async () => {
    const sandbox = await startSandbox({ timeScale: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 25; i++)
      ids.push((await createBatch(sandbox, { task_name: `page ${i}`, items: items(1) })).body.id);
    const seen: string[] = [];
    const pages: { size: number; hasMore: boolean }[] = [];
    for (let offset = 0; ;) {
      const { body } = await call(sandbox.url, 'GET', `/v1/images/batches?limit=10&cursor=${offset}`, {
        key: ALICE,
      });
      expect(body.object).toBe('list');
      pages.push({ size: body.data.length, hasMore: body.has_more });
      if (body.data.length === 0) break;
      seen.push(...body.data.map((b: any) => b.id));
      offset += body.data.length;
    }
    expect(pages).toEqual([
      { size: 10, hasMore: true },
      { size: 10, hasMore: true },
      { size: 5, hasMore: false },
      { size: 0, hasMore: false },
    ]);
    // created_at descending, then id descending: the same second orders by id.
    const all = (await call(sandbox.url, 'GET', '/v1/images/batches?limit=100', { key: ALICE })).body.data;
    const sorted = [...all].sort((a: any, b: any) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1));
    expect(all.map((b: any) => b.id)).toEqual(sorted.map((b: any) => b.id));
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it('an exactly full last page says has_more, and the next page is empty', async () => {
    const sandbox = await startSandbox({ timeScale: 1 });
    for (let i = 0; i < 4; i++) await createBatch(sandbox, { items: items(1) });
    const first = await call(sandbox.url, 'GET', '/v1/images/batches?limit=2&cursor=2', { key: ALICE });
    expect([first.body.data.length, first.body.has_more]).toEqual([2, true]);
    const next = await call(sandbox.url, 'GET', '/v1/images/batches?limit=2&cursor=4', { key: ALICE });
    expect([next.body.data.length, next.body.has_more]).toEqual([0, false]);
  });

  it('a limit over the maximum is reset to the default of 20, not clamped', async () => {
    const sandbox = await startSandbox({ timeScale: 1 });
    for (let i = 0; i < 25; i++) await createBatch(sandbox, { items: items(1) });
    expect((await call(sandbox.url, 'GET', '/v1/images/batches', { key: ALICE })).body.data).toHaveLength(20);
    expect(
      (await call(sandbox.url, 'GET', '/v1/images/batches?limit=101', { key: ALICE })).body.data,
    ).toHaveLength(20);
    expect(
      (await call(sandbox.url, 'GET', '/v1/images/batches?limit=100', { key: ALICE })).body.data,
    ).toHaveLength(25);
  });

  it('filters by status, fuzzy task name, downloaded and creation time', async () => {
    const sandbox = await startSandbox({ timeScale: 1 });
    const fox = await createBatch(sandbox, { task_name: 'Autumn FOX series', items: items(1) });
    const owl = await createBatch(sandbox, { task_name: 'night owls', items: items(1) });
    await call(sandbox.url, 'POST', `/v1/images/batches/${owl.body.id}/cancel`, { key: ALICE });
    const list = async (query: string) =>
      (await call(sandbox.url, 'GET', `/v1/images/batches?${query}`, { key: ALICE })).body.data.map(
        (b: any) => b.id,
      );

    expect(await list('status=cancelled')).toEqual([owl.body.id]);
    expect(await list('status=queued')).toEqual([fox.body.id]);
    expect(await list('task_name=fox')).toEqual([fox.body.id]);
    expect(await list('task_name=OWL')).toEqual([owl.body.id]);
    expect((await list('downloaded=false')).sort()).toEqual([fox.body.id, owl.body.id].sort());
    expect(await list('downloaded=1')).toEqual([]);
    expect(await list('downloaded=no')).toHaveLength(2);

    const created = fox.body.created_at as number;
    expect(await list(`from=${created + 3600}`)).toEqual([]);
    expect(await list(`to=${created}`)).toEqual([]);
    expect(await list(`from=${created}&to=${created + 3600}`)).toHaveLength(2);
    const day = new Date(created * 1000).toISOString().slice(0, 10);
    expect(await list(`from=${day}`)).toHaveLength(2);
    expect(await list(`from=${encodeURIComponent(new Date((created + 3600) * 1000).toISOString())}`)).toEqual(
      [],
    );
    expect(await list('from=not-a-date')).toHaveLength(2);

    const bad = await call(sandbox.url, 'GET', '/v1/images/batches?downloaded=maybe', { key: ALICE });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toEqual(expect.any(String));
    const badStatus = await call(sandbox.url, 'GET', '/v1/images/batches?status=done', { key: ALICE });
    expect(badStatus.status).toBe(400);
  });
});

describe('items list', () => {
  it('pages over 450 items with limit and offset cursor; over 500 resets to 100', async () => {
    const sandbox = await startSandbox({
      timeScale: 1,
      config: { limits: { maxItems: 500, maxOutputImages: 500 } },
    });
    const answer = await createBatch(sandbox, { items: items(450) });
    expect(answer.body.item_count).toBe(450);
    const path = `/v1/images/batches/${answer.body.id}/items`;

    const pages: number[] = [];
    const ids: string[] = [];
    for (let offset = 0; ;) {
      const { body } = await call(sandbox.url, 'GET', `${path}?cursor=${offset}`, { key: ALICE });
      pages.push(body.data.length);
      if (body.data.length === 0) break;
      ids.push(...body.data.map((i: any) => i.custom_id));
      offset += body.data.length;
      if (!body.has_more) break;
    }
    expect(pages).toEqual([100, 100, 100, 100, 50]);
    expect(ids).toEqual(Array.from({ length: 450 }, (_, i) => `row${i + 1}`));

    expect((await call(sandbox.url, 'GET', `${path}?limit=500`, { key: ALICE })).body.data).toHaveLength(450);
    expect((await call(sandbox.url, 'GET', `${path}?limit=501`, { key: ALICE })).body.data).toHaveLength(100);
    const page = await call(sandbox.url, 'GET', `${path}?limit=150&cursor=300`, { key: ALICE });
    expect([page.body.data.length, page.body.has_more, page.body.data[0].custom_id]).toEqual([
      150,
      true,
      'row301',
    ]);
    const pending = await call(sandbox.url, 'GET', `${path}?status=pending&limit=10`, { key: ALICE });
    expect(pending.body.data).toHaveLength(10);
  });
});

describe('key isolation', () => {
  it("another key's batch is 404 BATCH_IMAGE_NOT_FOUND everywhere and absent from its list", async () => {
    const sandbox = await startSandbox({ timeScale: 2000 });
    const mine = await createBatch(sandbox, { task_name: 'alice only', items: items(1) });
    await waitForStatus(sandbox, mine.body.id, ['completed']);
    const base = `/v1/images/batches/${mine.body.id}`;
    for (const [method, path] of [
      ['GET', base],
      ['GET', `${base}/items`],
      ['GET', `${base}/items/row1/content`],
      ['GET', `${base}/download`],
      ['POST', `${base}/cancel`],
      ['DELETE', `${base}/outputs`],
      ['DELETE', base],
    ] as const) {
      const answer = await call(sandbox.url, method, path, { key: BOB });
      expect([method, path, answer.status, answer.body?.error?.code]).toEqual([
        method,
        path,
        404,
        'BATCH_IMAGE_NOT_FOUND',
      ]);
    }
    expect((await call(sandbox.url, 'GET', '/v1/images/batches', { key: BOB })).body.data).toEqual([]);
    expect((await call(sandbox.url, 'GET', base, { key: ALICE })).body.status).toBe('completed');
  });

  it('an unknown batch id is 404 BATCH_IMAGE_NOT_FOUND', async () => {
    const sandbox = await startSandbox();
    const answer = await call(
      sandbox.url,
      'GET',
      '/v1/images/batches/imgbatch_00000000000000000000000000000000',
      {
        key: ALICE,
      },
    );
    expect([answer.status, answer.body.error.code, answer.body.error.type]).toEqual([
      404,
      'BATCH_IMAGE_NOT_FOUND',
      'invalid_request_error',
    ]);
  });
});

describe('authentication', () => {
  it('takes Bearer, x-api-key or the native key header; a missing or wrong key is 401', async () => {
    const sandbox = await startSandbox();
    const path = '/v1/images/batches/models';
    expect((await call(sandbox.url, 'GET', path, { key: ALICE })).status).toBe(200);
    expect((await call(sandbox.url, 'GET', path, { headers: { 'x-api-key': ALICE } })).status).toBe(200);
    expect((await call(sandbox.url, 'GET', path, { headers: { 'x-imgvendor-api-key': ALICE } })).status).toBe(
      200,
    );
    const missing = await call(sandbox.url, 'GET', path);
    expect([missing.status, missing.body.error.type]).toEqual([401, 'authentication_error']);
    const wrong = await call(sandbox.url, 'GET', path, { key: 'sk-wrong' });
    expect([wrong.status, wrong.body.error.type, wrong.body.error.code]).toEqual([
      401,
      'authentication_error',
      'INVALID_API_KEY',
    ]);
    expect(wrong.text).not.toContain('sk-wrong');
  });

  it('puts an X-Request-ID on every answer and echoes one the client sent', async () => {
    const sandbox = await startSandbox();
    const own = await call(sandbox.url, 'GET', '/v1/images/batches', {
      key: ALICE,
      headers: { 'x-request-id': 'studio-123' },
    });
    expect(own.headers.get('x-request-id')).toBe('studio-123');
    for (const path of ['/v1/images/batches', '/nope', '/v1beta/models', '/api/openapi/kb/pushData']) {
      const answer = await call(sandbox.url, 'GET', path);
      expect(answer.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    }
  });
});
