import { describe, expect, it } from 'vitest';
import type { BatchView } from '../../src-shared/batch-view';
import type { Draft } from '../../src-shared/draft';
import type { BudgetCheck, BudgetStatus, Spending } from '../../src-shared/spending-view';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

// Real services against their own sandbox: the figures are the gateway's estimate, hold and actual.
const fast = await startServices();
// At real pace a batch sits queued for minutes, so its hold is the outstanding figure.
const slow = await startServices({ sandboxTimeScale: 1 });

const MODEL = 'imgvendor-3.1-flash-image';
// Far apart on either side of UTC, so a batch's day depends on the zone asked for.
const EAST = 'Pacific/Kiritimati'; // UTC+14
const WEST = 'Pacific/Pago_Pago'; // UTC-11

function draft(name: string, prompts: string[]): Draft {
  return {
    id: `spending-${name}`,
    name,
    model: MODEL,
    items: prompts.map((prompt, i) => ({ customId: `r${i + 1}`, prompt, outputCount: 1, referenceIds: [] })),
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png',
  };
}

/** The calendar day of a unix-seconds instant at a fixed offset, computed without Intl. */
const dayAtOffset = (unixSeconds: number, hours: number) =>
  new Date((unixSeconds + hours * 3600) * 1000).toISOString().slice(0, 10);

describe('spending per day', () => {
  it('counts an outstanding batch at its hold, and a cancelled one at nothing', async () => {
    const { batch } = (await call(slow, 'batches.submit', {
      draft: draft('queued', ['a kettle', 'a pot']),
    })) as {
      batch: BatchView;
    };
    expect(batch.status).toBe('queued');
    const spending: Spending = await call(slow, 'batches.spending', { timeZone: 'UTC' });
    expect(spending.days).toHaveLength(30);
    const today = spending.days.at(-1)!;
    expect(today.day).toBe(dayAtOffset(batch.createdAt, 0));
    expect(today).toMatchObject({ batches: 1, actual: 0 });
    expect(today.estimated).toBeCloseTo(batch.estimatedCost, 6);
    expect(today.held).toBeCloseTo(batch.holdAmount, 6);
    expect(today.spent).toBeCloseTo(batch.holdAmount, 6);
    expect(spending.days.slice(0, -1).every((d) => d.batches === 0 && d.spent === 0)).toBe(true);

    await call(slow, 'batches.cancel', { id: batch.id });
    const after: Spending = await call(slow, 'batches.spending', { timeZone: 'UTC' });
    expect(after.totals).toMatchObject({ batches: 1, estimated: 0, held: 0, spent: 0 });
  });

  it('counts settled batches at their actual cost, on the creation day of the zone asked for', async () => {
    const settled = (b: BatchView) => b.actualCost !== null;
    const sent: BatchView[] = [];
    for (const [name, prompts] of [
      ['mugs', ['a mug', 'a cup']],
      ['plates', ['a plate', 'a bowl [fail]', 'a dish']],
    ] as const) {
      const { batch } = await call(fast, 'batches.submit', { draft: draft(name, [...prompts]) });
      sent.push(await waitUntil(() => call(fast, 'batches.get', { id: batch.id }), settled));
    }
    const actual = sent.reduce((sum, b) => sum + b.actualCost!, 0);
    const estimated = sent.reduce((sum, b) => sum + b.estimatedCost, 0);
    // A failed item is not charged: the actual cost is below the estimate, and it is what counts.
    expect(actual).toBeLessThan(estimated);

    for (const [timeZone, offset] of [
      [EAST, 14],
      [WEST, -11],
    ] as const) {
      const spending: Spending = await call(fast, 'batches.spending', { timeZone });
      const busy = spending.days.filter((d) => d.batches > 0);
      expect(busy.map((d) => d.day)).toEqual([...new Set(sent.map((b) => dayAtOffset(b.createdAt, offset)))]);
      expect(spending.totals).toMatchObject({ batches: 2, held: 0 });
      expect(spending.totals.actual).toBeCloseTo(actual, 6);
      expect(spending.totals.spent).toBeCloseTo(actual, 6);
      expect(spending.totals.estimated).toBeCloseTo(estimated, 6);
    }

    // Removed from the list, a batch still cost what it cost.
    await call(fast, 'batches.deleteRecord', { id: sent[0]!.id });
    expect((await call(fast, 'batches.list')).map((b: BatchView) => b.id)).not.toContain(sent[0]!.id);
    const afterRemoval: Spending = await call(fast, 'batches.spending', { timeZone: 'UTC' });
    expect(afterRemoval.totals.batches).toBe(2);
    expect(afterRemoval.totals.spent).toBeCloseTo(actual, 6);

    // A chosen range: only its days, and nothing outside it counts.
    const range: Spending = await call(fast, 'batches.spending', {
      timeZone: 'UTC',
      from: '2020-01-01',
      to: '2020-01-07',
    });
    expect(range.days.map((d) => d.day)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `2020-01-0${n}`));
    expect(range.totals.batches).toBe(0);
  });

  it('sets a monthly budget on the profile and says whether a submit would cross it', async () => {
    const none: BudgetCheck = await call(fast, 'batches.budgetCheck', {
      timeZone: 'UTC',
      parts: [{ model: MODEL, images: 1 }],
    });
    expect(none.verdict).toBe('no-budget');
    const month: BudgetStatus = await call(fast, 'batches.budget', { timeZone: 'UTC' });
    const perImage = (none.estimate ?? 0) / 1;
    expect(perImage).toBeGreaterThan(0);

    // Room for two more images, not for four.
    const [sandbox] = (await call(fast, 'profiles.list')) as { id: string; name: string; baseUrl: string }[];
    const budget = month.spent + perImage * 3;
    await call(fast, 'profiles.save', {
      id: sandbox!.id,
      name: sandbox!.name,
      baseUrl: 'http://127.0.0.1',
      monthlyBudget: budget,
    });
    const saved = (await call(fast, 'profiles.list')) as { monthlyBudget: number | null }[];
    expect(saved[0]!.monthlyBudget).toBeCloseTo(budget, 6);

    const status: BudgetStatus = await call(fast, 'batches.budget', { timeZone: 'UTC' });
    expect(status.budget).toBeCloseTo(budget, 6);
    expect(status.remaining).toBeCloseTo(perImage * 3, 6);
    const check = (images: number, model = MODEL): Promise<BudgetCheck> =>
      call(fast, 'batches.budgetCheck', { timeZone: 'UTC', parts: [{ model, images }] });
    expect((await check(2)).verdict).toBe('within');
    const crossing = await check(4);
    expect(crossing.verdict).toBe('crosses');
    expect(crossing.estimate).toBeCloseTo(perImage * 4, 6);
    // A model never sent from this profile has no estimate yet: the studio says so, it does not guess.
    const unknown = await check(1, 'imgvendor-never-sent');
    expect(unknown).toMatchObject({
      verdict: 'unknown',
      estimate: null,
      unknownModels: ['imgvendor-never-sent'],
    });

    // Saving the profile without the field keeps the budget; null removes it.
    await call(fast, 'profiles.save', { id: sandbox!.id, name: sandbox!.name, baseUrl: 'http://127.0.0.1' });
    expect(((await call(fast, 'batches.budget', { timeZone: 'UTC' })) as BudgetStatus).budget).toBeCloseTo(
      budget,
      6,
    );
    await call(fast, 'profiles.save', {
      id: sandbox!.id,
      name: sandbox!.name,
      baseUrl: 'http://127.0.0.1',
      monthlyBudget: null,
    });
    expect((await check(4)).verdict).toBe('no-budget');
  });

  it('refuses a time zone that does not exist', async () => {
    const answer = await fast.dispatch('batches.spending', { timeZone: 'Mars/Olympus' });
    expect(answer.ok).toBe(false);
  });
});
