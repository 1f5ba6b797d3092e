import { describe, expect, it } from 'vitest';
import { ALICE, call, createBatch, items, startSandbox, waitForStatus } from './harness';

describe('item failures', () => {
  it('some items fail upstream at the configured rate, with the codes deployed gateways report', async () => {
    const flaky = await startSandbox({ timeScale: 2000, config: { itemFailureRate: 0.3 } });
    const answer = await createBatch(flaky, { items: items(200) });
    const { batch } = await waitForStatus(flaky, answer.body.id, ['completed'], ALICE, 60_000);
    expect(batch.fail_count).toBeGreaterThan(30);
    expect(batch.fail_count).toBeLessThan(90);
    const failed = await call(
      flaky.url,
      'GET',
      `/v1/images/batches/${batch.id}/items?status=failed&limit=500`,
      { key: ALICE },
    );
    const codes = new Set(failed.body.data.map((i: any) => i.error.code));
    expect(
      [...codes].every((c) =>
        [
          'SAFETY_BLOCKED',
          'INVALID_ARGUMENT',
          'PROVIDER_RATE_LIMITED',
          'PROVIDER_ITEM_FAILED',
          'EMPTY_IMAGE_OUTPUT',
          'PROVIDER_RESULT_MISSING',
        ].includes(c as string),
      ),
    ).toBe(true);
    expect(codes.size).toBeGreaterThan(3);
  });
});
