import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../sandbox/gateway';
import { RealtimeClient, ratiosFor } from '../services/realtime/realtime-client';
import { FLASH } from './helpers/prompts-draft';

const PRO = 'imgvendor-3-pro-image';
const sandbox: Sandbox = await createSandbox({ timeScale: 1000 });
const noWait = { sleep: async () => undefined };
const client = (key = 'sk-sandbox-alice', options = {}) =>
  new RealtimeClient({ baseUrl: sandbox.url, key }, { ...noWait, ...options });

/** Runs one generation under a fault and answers how many requests reached the gateway. */
async function withFault(
  spec: string,
  run: () => Promise<unknown>,
): Promise<{ requests: number; result?: any; error?: any }> {
  sandbox.faults.set(spec);
  const before = sandbox.inspect().requests.realtime ?? 0;
  let result, error;
  try {
    result = await run();
  } catch (err) {
    error = err;
  }
  sandbox.faults.set('');
  return { requests: (sandbox.inspect().requests.realtime ?? 0) - before, result, error };
}

const one = (prompt = 'a lighthouse', extra = {}) =>
  client().generate({ model: FLASH, prompt, images: [], imageSize: '1K', ...extra });

describe('the realtime success test', () => {
  it('accepts a 2xx with an image that decodes, and takes the extension from the MIME type', async () => {
    const result = await one('a lighthouse at dusk', { aspectRatio: '16:9' });
    expect(result).toMatchObject({ mime: 'image/png', extension: 'png', attempts: 1 });
    expect(result.text.length).toBeGreaterThan(0);
    expect(await sharp(result.image).metadata()).toMatchObject({ width: 1344, height: 768 });
    expect(result.modelVersion).toBe('imgvendor-3.1-flash-image-001');
  });

  it('edits: input images travel as inlineData', async () => {
    const input = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    const result = await client().generate({
      model: PRO,
      prompt: 'make it blue',
      images: [{ mime: 'image/png', data: input }],
      imageSize: '1K',
    });
    expect(result.text).toMatch(/edited/);
  });
});

describe('the retry table, counted in requests', () => {
  for (const status of ['429', '502', '503', '504']) {
    it(`${status} is retried, and the next attempt succeeds`, async () => {
      const { requests, result } = await withFault(`${status}=#1`, () => one());
      expect(requests).toBe(2);
      expect(result.attempts).toBe(2);
    });
  }

  it('a reset connection is retried', async () => {
    const { requests, result } = await withFault('reset=#1', () => one());
    expect([requests, result.attempts]).toEqual([2, 2]);
  });

  it('at most 3 attempts, then the error with its status and request id', async () => {
    const { requests, error } = await withFault('503=1', () => one());
    expect(requests).toBe(3);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', httpStatus: 503 });
    expect(error.requestId).toMatch(/\S+/);
  });

  it('500 is not retried', async () => {
    const { requests, error } = await withFault('500=1', () => one());
    expect([requests, error.httpStatus, error.code]).toEqual([1, 500, 'INTERNAL']);
  });

  it('400, 401 and 402, and a policy refusal, are never retried', async () => {
    const cases: [() => Promise<unknown>, number][] = [
      [() => one('something [blocked]'), 400],
      [() => client('sk-wrong').generate({ model: FLASH, prompt: 'x', images: [], imageSize: '1K' }), 401],
      [
        () => client('sk-sandbox-poor').generate({ model: FLASH, prompt: 'x', images: [], imageSize: '1K' }),
        402,
      ],
    ];
    for (const [run, status] of cases) {
      const { requests, error } = await withFault('', run);
      expect([status, requests, error.httpStatus]).toEqual([status, 1, status]);
    }
  });

  it('a message about keys cooling down stops at once and says it is a capacity problem', async () => {
    const { requests, error } = await withFault('capacity=1', () => one());
    expect(requests).toBe(1);
    expect(error.code).toBe('STUDIO_CAPACITY');
    expect(error.message).toMatch(/capacity/);
  });

  it('a 200 without an image is retried once, then reported with the model text and finishReason', async () => {
    const once = await withFault('noimage=#1', () => one());
    expect([once.requests, once.result.attempts]).toEqual([2, 2]);
    const always = await withFault('noimage=1', () => one());
    expect(always.requests).toBe(2);
    expect(always.error.code).toBe('STUDIO_NO_IMAGE');
    expect(always.error.message).toMatch(/finishReason NO_IMAGE/);
    expect(always.error.message).toMatch(/could not produce an image/);
  });
});

describe('ratios and timeouts', () => {
  it('a Flash-only ratio is never sent to a Pro model, nor to a model the studio does not know', async () => {
    expect(ratiosFor(FLASH)).toContain('4:1');
    expect(ratiosFor(PRO)).not.toContain('4:1');
    expect(ratiosFor('imgvendor-9-new-image')).not.toContain('1:8');
    const { requests, error } = await withFault('', () =>
      client().generate({ model: PRO, prompt: 'wide', images: [], imageSize: '1K', aspectRatio: '4:1' }),
    );
    expect([requests, error.code]).toEqual([0, 'STUDIO_RATIO_UNSUPPORTED']);
    const flash = await withFault('', () => one('wide', { aspectRatio: '4:1' }));
    expect(flash.requests).toBe(1);
  });

  it('the total timeout of the tier fires', async () => {
    const slow = client('sk-sandbox-alice', { timeoutMs: () => 400 });
    const { error } = await withFault('slow=1,slow_ms=3000', () =>
      slow.generate({ model: FLASH, prompt: 'x', images: [], imageSize: '1K' }),
    );
    expect(error.code).toBe('NETWORK_TIMEOUT');
    expect(error.message).toMatch(/limit for 1K/);
  });
});
