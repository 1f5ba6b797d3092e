import type { CostSummary } from '../../../src-shared/batch-view';
import type { EventHub } from '../dispatch/event-hub';
import type { BatchRecords } from './batch-records';
import { isTerminal } from './tracked-batch';

/** Terminal states that end without the estimate being charged. */
const NOT_CHARGED = new Set(['cancelled', 'failed']);

/** What each profile's batches cost, by creation day, and the push of those figures to the windows. */
export class BatchCosts {
  /** The cost figures last pushed per profile, so an update that moves no money pushes none. */
  private sent = new Map<string, string>();

  constructor(
    private records: BatchRecords,
    private events: Pick<EventHub, 'emit'>,
  ) {}

  /** What a profile's batches cost: answered to `batches.costs`, and pushed as `costs.changed`. */
  summary(profileId = this.records.activeId()): CostSummary {
    const days = new Map<string, CostSummary['days'][number]>();
    for (const b of this.records.store.list(profileId)) {
      if (b.hidden) continue;
      const day = new Date(b.remote.created_at * 1000).toISOString().slice(0, 10);
      const entry = days.get(day) ?? { day, batches: 0, estimated: 0, held: 0, actual: 0 };
      entry.batches += 1;
      // Only money that is or will be spent: a cancelled or failed batch's estimate was never
      // charged, and its hold went back to the balance.
      if (!NOT_CHARGED.has(b.remote.status)) entry.estimated += b.remote.estimated_cost;
      // A hold is outstanding until the batch settles.
      if (b.remote.actual_cost === null && !isTerminal(b)) entry.held += b.remote.hold_amount;
      entry.actual += b.remote.actual_cost ?? 0;
      days.set(day, entry);
    }
    const list = [...days.values()].sort((a, b) => (a.day < b.day ? 1 : -1));
    const round = (n: number) => Math.round(n * 1e6) / 1e6;
    const totals = list.reduce(
      (t, d) => ({
        batches: t.batches + d.batches,
        estimated: t.estimated + d.estimated,
        held: t.held + d.held,
        actual: t.actual + d.actual,
      }),
      { batches: 0, estimated: 0, held: 0, actual: 0 },
    );
    return {
      profileId,
      totals: {
        batches: totals.batches,
        estimated: round(totals.estimated),
        held: round(totals.held),
        actual: round(totals.actual),
      },
      days: list.map((d) => ({
        ...d,
        estimated: round(d.estimated),
        held: round(d.held),
        actual: round(d.actual),
      })),
    };
  }

  /** The profile's figures as `costs.changed`, only when they moved since the last push. */
  pushIfMoved(profileId: string): void {
    const summary = this.summary(profileId);
    const figures = JSON.stringify(summary);
    if (this.sent.get(profileId) === figures) return;
    this.sent.set(profileId, figures);
    this.events.emit('costs.changed', summary);
  }
}
