import { describe, expect, it } from 'vitest';
import type { BatchView } from '../../src-shared/batch-view';
import type { Draft } from '../../src-shared/draft';
import { sumMoney } from '../../src-shared/money';
import type { Spending } from '../../src-shared/spending-view';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

// A hundredth of real pace: a batch runs for about two seconds, long enough to cancel one on its way.
const services = await startServices({ sandboxTimeScale: 100 });

const RUN = 'run-money-rules-0001';
const MODELS = ['imgvendor-3.1-flash-image', 'imgvendor-3-pro-image'];

function draft(id: string, model: string, prompts: string[]): Draft {
  return {
    id,
    name: 'Vases on every model',
    model,
    // The run's id in the metadata is what makes a batch one model of the run, as submitRun does.
    metadata: { run_id: RUN },
    items: prompts.map((prompt, i) => ({ customId: `r${i + 1}`, prompt, outputCount: 1, referenceIds: [] })),
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png',
  };
}

describe("a run's money", () => {
  it('is the same in main spending figures and in the Batches screen run header, cancelled and failed batches included', async () => {
    await call(services, 'batches.submitRun', {
      runId: RUN,
      draft: draft('money-run', MODELS[0]!, ['a blue vase', 'a green vase']),
      models: MODELS,
    });
    // Two more batches of the same run: one whose every item fails, one cancelled on its way.
    await call(services, 'batches.submit', {
      draft: draft('money-failed', MODELS[0]!, ['a vase [fail]', 'a jug [fail]']),
    });
    const { batch: toCancel } = await call(services, 'batches.submit', {
      draft: draft('money-cancelled', MODELS[1]!, ['a red vase', 'a white jug']),
    });
    await call(services, 'batches.cancel', { id: toCancel.id });

    const run = (await waitUntil(
      async () => ((await call(services, 'batches.list')) as BatchView[]).filter((b) => b.runId === RUN),
      (list) => list.length === 4 && list.every((b) => b.terminal && b.actualCost !== null),
    )) as BatchView[];
    expect(run.map((b) => b.status).sort()).toEqual(['cancelled', 'completed', 'completed', 'failed']);

    // What the Batches screen's run header adds up from the batches it lists.
    const header = sumMoney(run);
    // What main's spending counts for the same batches (the profile has no other).
    const spending: Spending = await call(services, 'batches.spending', { timeZone: 'UTC' });
    expect(spending.totals.batches).toBe(4);
    expect(header.estimated).toBeCloseTo(spending.totals.estimated, 6);
    expect(header.held).toBeCloseTo(spending.totals.held, 6);
    expect(header.actual).toBeCloseTo(spending.totals.actual, 6);

    // The estimate is the two completed batches' alone: the cancelled and failed ones were never charged.
    const completed = run.filter((b) => b.status === 'completed');
    const charged = completed.reduce((sum, b) => sum + b.estimatedCost, 0);
    const everything = run.reduce((sum, b) => sum + b.estimatedCost, 0);
    expect(header.estimated).toBeCloseTo(charged, 6);
    expect(header.estimated).toBeLessThan(everything - 1e-6);
    // And the cost totals pushed to the windows count the same estimate.
    const costs = await call(services, 'batches.costs');
    expect(costs.totals.estimated).toBeCloseTo(header.estimated, 6);
  });
});
