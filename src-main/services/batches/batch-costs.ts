import type { CostSummary } from '../../../src-shared/batch-view';
import { dayIn, localTimeZone, sumMoney, type BatchMoney } from '../../../src-shared/money';
import type { EventHub } from '../dispatch/event-hub';
import type { BatchRecords } from './batch-records';
import { isTerminal } from './tracked-batch';

/** What each profile's batches cost, by creation day, and the push of those figures to the windows. */
export class BatchCosts {
  /** The cost figures last pushed per profile, so an update that moves no money pushes none. */
  private sent = new Map<string, string>();

  constructor(
    private records: BatchRecords,
    private events: Pick<EventHub, 'emit'>,
  ) {}

  /**
   * What a profile's batches cost: answered to `batches.costs`, and pushed as `costs.changed`. A batch
   * counts on the day it was made in the user's time zone (this machine's), as the spending chart
   * counts it, by the shared money rules.
   */
  summary(profileId = this.records.activeId(), timeZone = localTimeZone()): CostSummary {
    const days = new Map<string, BatchMoney[]>();
    const all: BatchMoney[] = [];
    for (const b of this.records.store.list(profileId)) {
      if (b.hidden) continue;
      const day = dayIn(timeZone, b.remote.created_at);
      const money: BatchMoney = {
        status: b.remote.status,
        terminal: isTerminal(b),
        estimatedCost: b.remote.estimated_cost,
        holdAmount: b.remote.hold_amount,
        actualCost: b.remote.actual_cost,
      };
      days.set(day, [...(days.get(day) ?? []), money]);
      all.push(money);
    }
    const figures = (batches: BatchMoney[]) => {
      const { batches: count, estimated, held, actual } = sumMoney(batches);
      return { batches: count, estimated, held, actual };
    };
    return {
      profileId,
      totals: figures(all),
      days: [...days]
        .sort(([a], [b]) => (a < b ? 1 : -1))
        .map(([day, batches]) => ({ day, ...figures(batches) })),
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
