import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../sandbox/gateway';
import { StudioError } from '../../src-shared/studio-error';
import { RealtimeClient } from '../services/realtime/realtime-client';
import { retryPolicies, retryWaitMs, withRetry } from '../services/gateway/retry-policy';

const sandbox = await createSandbox({ timeScale: 1000 });
afterAll(() => sandbox.close());

describe('retry policies', () => {
  it("realtime waits exactly the spec's windows: 1-2 s, then 3-5 s, three attempts in all", async () => {
    for (const random of [() => 0, () => 0.999, Math.random]) {
      const waits: number[] = [];
      sandbox.faults.set('503=1');
      const before = sandbox.inspect().requests.realtime ?? 0;
      const client = new RealtimeClient(
        { baseUrl: sandbox.url, key: 'sk-sandbox-alice' },
        { sleep: async (ms) => void waits.push(ms) },
      );
      const original = Math.random;
      Math.random = random;
      const error = await client
        .generate({ model: 'imgvendor-3.1-flash-image', prompt: 'x', images: [], imageSize: '1K' })
        .catch((err: unknown) => err)
        .finally(() => (Math.random = original));
      sandbox.faults.set('');
      expect((sandbox.inspect().requests.realtime ?? 0) - before).toBe(3);
      expect(error).toMatchObject({ httpStatus: 503 });
      expect(waits).toHaveLength(2);
      expect(waits[0]).toBeGreaterThanOrEqual(1_000);
      expect(waits[0]).toBeLessThanOrEqual(2_000);
      expect(waits[1]).toBeGreaterThanOrEqual(3_000);
      expect(waits[1]).toBeLessThanOrEqual(5_000);
    }
  });

  it('a definite answer is not retried, and the last window repeats past the end of the list', async () => {
    let calls = 0;
    const definite = new StudioError({ code: 'BATCH_IMAGE_INVALID', message: 'no', httpStatus: 400 });
    await expect(
      withRetry(retryPolicies.unknownOutcome, async () => {
        calls++;
        throw definite;
      }),
    ).rejects.toBe(definite);
    expect(calls).toBe(1);
    expect(retryWaitMs(retryPolicies.kbChunk, 9, () => 1)).toBe(2_400);
  });

  it('a gateway faster than real time waits less, in proportion', async () => {
    const waits: number[] = [];
    let calls = 0;
    const limited = new StudioError({
      code: 'BATCH_IMAGE_DOWNLOAD_LIMITED',
      message: 'busy',
      httpStatus: 429,
    });
    const result = await withRetry(
      retryPolicies.downloadSlot,
      async () => {
        if (++calls < 4) throw limited;
        return 'done';
      },
      { speed: 10, random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
    );
    expect([result, waits]).toEqual(['done', [100, 200, 400]]);
  });
});
