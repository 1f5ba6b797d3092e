import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../sandbox/gateway';
import { BatchClient } from '../services/gateway/batch-client';
import { FLASH } from './helpers/prompts-draft';

describe('the batch client against the deployed variants of gateway-notes.md', () => {
  for (const variant of [
    { createStatus: 200, itemSuccessWord: 'success' },
    { createStatus: 202, itemSuccessWord: 'succeeded' },
  ] as const) {
    it(`create ${variant.createStatus}, items "${variant.itemSuccessWord}"`, async () => {
      const sandbox = await createSandbox({ timeScale: 2000, config: { variant, itemFailureRate: 0 } });
      try {
        const client = new BatchClient({ baseUrl: sandbox.url, key: 'sk-sandbox-alice' });
        const body = {
          model: FLASH,
          task_name: 'variant',
          items: [
            { custom_id: 'a', prompt: 'x', output_count: 1 },
            { custom_id: 'b', prompt: 'y [fail]', output_count: 1 },
          ],
        };
        const batch = await client.create(body, `variant-${variant.createStatus}`);
        expect(batch.status).toBe('queued');
        for (;;) {
          const now = await client.get(batch.id);
          if (now.status === 'completed') break;
          await new Promise((r) => setTimeout(r, 20));
        }
        const items = await client.items(batch.id);
        expect(items.map((i) => [i.custom_id, i.status])).toEqual([
          ['a', 'success'],
          ['b', 'failed'],
        ]);
        expect((await client.items(batch.id, 'success')).map((i) => i.custom_id)).toEqual(['a']);
      } finally {
        await sandbox.close();
      }
    });
  }

  it('pages the list by offset and stops on an exactly full last page', async () => {
    const sandbox = await createSandbox({ timeScale: 1 });
    try {
      const client = new BatchClient({ baseUrl: sandbox.url, key: 'sk-sandbox-bob' });
      for (let i = 0; i < 200; i++)
        await client.create(
          { model: FLASH, task_name: `n${i}`, items: [{ custom_id: 'a', prompt: 'x', output_count: 1 }] },
          `page-${i}`,
        );
      const all = await client.listAll();
      expect(all).toHaveLength(200);
      expect(new Set(all.map((b) => b.id)).size).toBe(200);
      expect(await client.listAll({ taskName: 'n19' })).toHaveLength(11);
    } finally {
      await sandbox.close();
    }
  });

  it('turns every error shape into one typed error with code, status and request id', async () => {
    const sandbox = await createSandbox({ timeScale: 1 });
    try {
      const wrong = new BatchClient({ baseUrl: sandbox.url, key: 'sk-wrong-key-123' });
      await expect(wrong.models()).rejects.toMatchObject({
        code: 'INVALID_API_KEY',
        httpStatus: 401,
        retryable: false,
        source: 'gateway',
      });
      const alice = new BatchClient({ baseUrl: sandbox.url, key: 'sk-sandbox-alice' });
      await expect(alice.get('imgbatch_nope')).rejects.toMatchObject({
        code: 'BATCH_IMAGE_NOT_FOUND',
        httpStatus: 404,
      });
      sandbox.faults.set('503=#1');
      const proxy = alice.get('imgbatch_nope');
      await expect(proxy).rejects.toMatchObject({ code: 'HTTP_503', httpStatus: 503, retryable: true });
      expect(await alice.models()).toContain(FLASH);
      sandbox.faults.set('429=#1');
      await expect(alice.models()).rejects.toMatchObject({
        code: 'RATE_LIMITED',
        httpStatus: 429,
        retryable: true,
      });
      const e = await alice.get('imgbatch_nope').catch((x) => x);
      expect(e.requestId).toMatch(/\S+/);
      expect(JSON.stringify(e)).not.toContain('sk-sandbox-alice');
      const down = new BatchClient({ baseUrl: 'http://127.0.0.1:9', key: 'k' });
      await expect(down.models()).rejects.toMatchObject({
        code: 'NETWORK_ERROR',
        retryable: true,
        source: 'network',
      });
    } finally {
      await sandbox.close();
    }
  });
});
