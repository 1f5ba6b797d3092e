import { vi } from 'vitest';

// The studio's machine is in Shanghai, and the clock reads 01:30 there on 27 November: 17:30 the
// day before in UTC. Set before anything reads the zone or the clock; the clock still moves on.
process.env.TZ = 'Asia/Shanghai';
vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-26T17:30:00Z'), shouldAdvanceTime: true });

const { describe, expect, it } = await import('vitest');
const { call, startServices } = await import('./helpers/studio-fixture');

const services = await startServices();

describe('the day a batch belongs to', () => {
  it('is the same on the spending chart and in the batch costs, in Asia/Shanghai', async () => {
    const { batch } = await call(services, 'batches.submit', {
      draft: {
        id: 'money-days',
        name: 'After midnight',
        model: 'imgvendor-3.1-flash-image',
        items: [{ customId: 'r1', prompt: 'a lantern at night', outputCount: 1, referenceIds: [] }],
        sharedReferenceIds: [],
        references: [],
        responseMime: 'image/png',
      },
    });
    // Made at 01:30 in Shanghai: the 27th there, still the 26th in UTC.
    expect(new Date(batch.createdAt * 1000).toISOString().slice(0, 10)).toBe('2026-11-26');

    const spending = await call(services, 'batches.spending', { timeZone: 'Asia/Shanghai' });
    const chartDays = spending.days
      .filter((d: { batches: number }) => d.batches > 0)
      .map((d: { day: string }) => d.day);
    const costs = await call(services, 'batches.costs');
    const costDays = costs.days.map((d: { day: string }) => d.day);
    expect(chartDays).toEqual(['2026-11-27']);
    expect(costDays).toEqual(chartDays);
  });
});
