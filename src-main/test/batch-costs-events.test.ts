import { describe, expect, it } from 'vitest';
import type { BatchView, CostSummary } from '../../src-shared/batch-view';
import { studioEvents } from '../../src-shared/studio-api';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

// The Batches screen keeps its cost totals from `costs.changed` alone: these are the figures it shows.
const services = await startServices();

const draft = (name: string, prompts: string[]) => promptsDraft(`costs-${name}`, name, prompts);

describe('cost totals travel with the batch events', () => {
  it('pushes the totals only when money moved, equal to batches.costs, down to the settled figures', async () => {
    const pushed: CostSummary[] = [];
    let updates = 0;
    const off = services.events.subscribe((event, payload) => {
      if (event === 'batch.updated') updates++;
      // What the window receives must satisfy the contract's schema, as an answer would.
      if (event === 'costs.changed') pushed.push(studioEvents['costs.changed'].parse(payload));
    });

    const { batch: mugs } = await call(services, 'batches.submit', {
      draft: draft('mugs', ['a mug', 'a cup']),
    });
    const { batch: plates } = await call(services, 'batches.submit', {
      draft: draft('plates', ['a plate', 'a bowl [fail]', 'a dish']),
    });
    const settled = (b: BatchView) => b.actualCost !== null && b.download.state === 'done';
    const done = [
      await waitUntil(() => call(services, 'batches.get', { id: mugs.id }), settled),
      await waitUntil(() => call(services, 'batches.get', { id: plates.id }), settled),
    ] as BatchView[];

    // While the batches ran, their holds were outstanding and the window was told so.
    for (const hold of [mugs.holdAmount, plates.holdAmount])
      expect(pushed.some((c) => c.totals.held >= hold - 1e-9)).toBe(true);
    // Every push moved money; polls and download steps that moved none pushed nothing.
    for (let i = 1; i < pushed.length; i++) expect(pushed[i]).not.toEqual(pushed[i - 1]);
    expect(pushed.length).toBeLessThan(updates);

    // The last push is exactly what the method answers, and it is the settled money of both.
    const answered: CostSummary = await call(services, 'batches.costs');
    expect(pushed.at(-1)).toEqual(answered);
    expect(answered.totals).toMatchObject({ batches: 2, held: 0 });
    expect(answered.totals.actual).toBeCloseTo(done[0]!.actualCost! + done[1]!.actualCost!, 6);
    expect(answered.totals.estimated).toBeCloseTo(done[0]!.estimatedCost + done[1]!.estimatedCost, 6);

    // Removing a batch from the list takes it out of the totals, and the window hears that too.
    await call(services, 'batches.deleteRecord', { id: mugs.id, deleteLocalFiles: false });
    const after: CostSummary = await call(services, 'batches.costs');
    expect(after.totals.batches).toBe(1);
    expect(pushed.at(-1)).toEqual(after);
    off();
  });
});
