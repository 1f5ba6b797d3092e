import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ALICE, FLASH, call, startSandbox } from './harness';

const sandbox = await startSandbox({ config: { limits: { maxBodyBytes: 64 * 1024 } } });

const NATIVE = { 'x-imgvendor-api-key': ALICE };
const KB = { apikey: 'kb-sandbox' };
const BATCH = { authorization: `Bearer ${ALICE}` };

const endpoints = [
  { api: 'batch', path: '/v1/images/batches', headers: BATCH },
  { api: 'realtime', path: `/v1beta/models/${FLASH}:generateContent`, headers: NATIVE },
  { api: 'kb', path: '/api/openapi/kb/pushData', headers: KB },
  { api: 'kb', path: '/api/openapi/kb/appKbSearch', headers: KB },
] as const;

/** Each API answers in its own envelope; none leaks a stack trace. */
function expectEnvelope(api: string, answer: { status: number; body: any; text: string }) {
  expect(answer.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  if (api === 'batch') {
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.body.error).toEqual({
      type: expect.any(String),
      code: expect.any(String),
      message: expect.any(String),
    });
  } else if (api === 'realtime') {
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.body.error).toEqual({
      code: answer.status,
      message: expect.any(String),
      status: expect.any(String),
    });
  } else {
    expect(answer.body).toMatchObject({
      code: expect.any(Number),
      statusText: expect.any(String),
      message: expect.any(String),
    });
    expect(answer.body.code).not.toBe(200);
  }
}

describe('bad input gets the error envelope of its API', () => {
  const bodies: [string, string][] = [
    ['malformed JSON', '{"model": "x", items: ['],
    ['an empty body', ''],
    ['a JSON array', '[1,2,3]'],
    ['a JSON string', '"hello"'],
    ['null', 'null'],
    [
      'wrong types',
      '{"model": 42, "items": "many", "contents": 7, "kbId": [], "mode": {}, "data": 3, "appId": 1, "prompts": "x"}',
    ],
    ['deep nesting', '['.repeat(5000) + ']'.repeat(5000)],
    ['invalid UTF-8', '\uFFFD\uFFFE'],
  ];
  for (const { api, path, headers } of endpoints) {
    for (const [name, raw] of bodies) {
      it(`${api} ${path.split('/').pop()}: ${name}`, async () => {
        const answer = await call(sandbox.url, 'POST', path, {
          raw,
          headers: { ...headers, 'content-type': 'application/json' },
        });
        expectEnvelope(api, answer);
      });
    }

    it(`${api} ${path.split('/').pop()}: a huge body is refused without reading it all`, async () => {
      const answer = await call(sandbox.url, 'POST', path, {
        raw: JSON.stringify({ pad: 'x'.repeat(200 * 1024) }),
        headers: { ...headers, 'content-type': 'application/json' },
      });
      expectEnvelope(api, answer);
      if (api !== 'kb') expect(answer.status).toBe(413);
    });

    it(`${api} ${path.split('/').pop()}: a broken gzip body and an unknown encoding`, async () => {
      const gz = await call(sandbox.url, 'POST', path, {
        raw: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01, 0x02]),
        headers: { ...headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      expectEnvelope(api, gz);
      const br = await call(sandbox.url, 'POST', path, {
        raw: '{}',
        headers: { ...headers, 'content-type': 'application/json', 'content-encoding': 'br' },
      });
      expectEnvelope(api, br);
    });
  }

  it('a huge body sent without Content-Length (chunked) is cut off at the limit', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${sandbox.url}/v1/images/batches`, {
        method: 'POST',
        headers: { ...BATCH, 'content-type': 'application/json' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      const chunk = 'x'.repeat(16 * 1024);
      for (let i = 0; i < 16; i++) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
  });

  it('unknown routes answer 404 in the envelope of the API they fall under', async () => {
    expectEnvelope('batch', await call(sandbox.url, 'GET', '/v1/images/batches/x/y/z/w', { headers: BATCH }));
    expectEnvelope('batch', await call(sandbox.url, 'PATCH', '/v1/images/batches', { headers: BATCH }));
    expectEnvelope(
      'batch',
      await call(sandbox.url, 'GET', '/v1/images/batches/x/nothing', { headers: BATCH }),
    );
    expectEnvelope('realtime', await call(sandbox.url, 'GET', '/v1beta/files', { headers: NATIVE }));
    expectEnvelope(
      'realtime',
      await call(sandbox.url, 'POST', `/v1beta/models/${FLASH}:countTokens`, { headers: NATIVE, raw: '{}' }),
    );
    expectEnvelope(
      'kb',
      await call(sandbox.url, 'POST', '/api/openapi/kb/deleteData', { headers: KB, raw: '{}' }),
    );
    const other = await call(sandbox.url, 'GET', '/wp-admin/../../etc/passwd');
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('NOT_FOUND');
  });

  it('a badly percent-encoded path is refused, not thrown', async () => {
    expectEnvelope(
      'batch',
      await call(sandbox.url, 'GET', '/v1/images/batches/%E0%A4%A', { headers: BATCH }),
    );
    expectEnvelope(
      'realtime',
      await call(sandbox.url, 'GET', '/v1beta/models/%E0%A4%A', { headers: NATIVE }),
    );
  });

  it('random garbage at every endpoint never takes the sandbox down', async () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = [
      '{',
      '}',
      '[',
      ']',
      '"',
      ':',
      ',',
      'null',
      'true',
      '1e999',
      '-0',
      '"items"',
      '"model"',
      '"prompt"',
      '"\\u0000"',
      ' ',
    ];
    for (let i = 0; i < 200; i++) {
      const { path, headers } = endpoints[i % endpoints.length]!;
      const raw = Array.from(
        { length: 1 + Math.floor(rand() * 30) },
        () => pieces[Math.floor(rand() * pieces.length)],
      ).join('');
      const answer = await call(sandbox.url, 'POST', path, {
        raw,
        headers: { ...headers, 'content-type': 'application/json' },
      });
      expect(answer.status).toBeLessThan(600);
      expect(answer.text).not.toMatch(/\n\s+at /);
    }
    expect((await call(sandbox.url, 'GET', '/v1/images/batches/models', { headers: BATCH })).status).toBe(
      200,
    );
  });
});
