import type { BatchView } from '../../../src-shared/batch-view';
import { dayIn, roundMoney as round, sumMoney } from '../../../src-shared/money';
import {
  SPENDING_MAX_DAYS,
  type BudgetCheck,
  type BudgetStatus,
  type Spending,
  type SpendingDay,
} from '../../../src-shared/spending-view';

/** What spending reads: the active profile's batches (as Batches lists them) and its budget. */
export interface SpendingDeps {
  profileId(): string;
  batches(): BatchView[];
  monthlyBudget(): number | null;
  /** Unix ms; tests move the clock. */
  now?: () => number;
}

const DAY_MS = 86_400_000;

/** Calendar arithmetic on `YYYY-MM-DD`, independent of any zone. */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** A day's (or the range's) figures by the shared money rules: sumMoney without its `settled`. */
function figures(batches: BatchView[]): Omit<SpendingDay, 'day'> {
  const { settled: _settled, ...sum } = sumMoney(batches);
  return sum;
}

/**
 * Money per day and per month for the active profile, from its batches' own estimate, hold and
 * actual. A batch belongs to the day (and month) it was created, in the user's time zone.
 */
export class SpendingService {
  constructor(private deps: SpendingDeps) {}

  private now(): number {
    return this.deps.now ? this.deps.now() : Date.now();
  }

  /** Every day from `from` to `to` (default: the last 30 days, today included). */
  daily(query: { timeZone: string; from?: string; to?: string }): Spending {
    const { timeZone } = query;
    let to = query.to ?? dayIn(timeZone, this.now() / 1000);
    let from = query.from ?? addDays(to, -29);
    if (from > to) [from, to] = [to, from];
    // A longer range keeps its end and is cut to a year, so one call stays small.
    if (daysBetween(from, to) >= SPENDING_MAX_DAYS) from = addDays(to, -(SPENDING_MAX_DAYS - 1));
    const days = new Map<string, BatchView[]>();
    for (let d = from; d <= to; d = addDays(d, 1)) days.set(d, []);
    const counted: BatchView[] = [];
    for (const b of this.deps.batches()) {
      const day = days.get(dayIn(timeZone, b.createdAt));
      if (!day) continue;
      day.push(b);
      counted.push(b);
    }
    return {
      profileId: this.deps.profileId(),
      timeZone,
      from,
      to,
      days: [...days].map(([day, batches]) => ({ day, ...figures(batches) })),
      totals: figures(counted),
    };
  }

  /** This calendar month so far, against the budget. */
  month(timeZone: string): BudgetStatus {
    const month = dayIn(timeZone, this.now() / 1000).slice(0, 7);
    const sum = figures(this.deps.batches().filter((b) => dayIn(timeZone, b.createdAt).startsWith(month)));
    const budget = this.deps.monthlyBudget();
    const spent = sum.spent;
    return {
      profileId: this.deps.profileId(),
      month,
      budget,
      batches: sum.batches,
      spent,
      remaining: budget === null ? null : round(budget - spent),
    };
  }

  /**
   * The estimate of what is about to be sent, from the per-image estimate of this profile's latest
   * batch of each model, and whether it would take this month past the budget.
   */
  check(
    query: { timeZone: string; parts: { model: string; images: number }[] },
    /** Sends on their way, in no batch yet: their estimate counts as spent (the send guard's view). */
    pending: { model: string; images: number }[] = [],
  ): BudgetCheck {
    const status = this.month(query.timeZone);
    const batches = this.deps.batches();
    const estimateOf = (parts: { model: string; images: number }[], unknown: string[]) => {
      let sum = 0;
      for (const part of parts) {
        const latest = batches
          .filter((b) => b.model === part.model && b.itemCount > 0)
          .sort((a, b) => b.createdAt - a.createdAt)[0];
        if (latest) sum += (latest.estimatedCost / latest.itemCount) * part.images;
        else if (!unknown.includes(part.model)) unknown.push(part.model);
      }
      return round(sum);
    };
    const unknownModels: string[] = [];
    const estimate = estimateOf(query.parts, unknownModels);
    const onTheWay = estimateOf(pending, []);
    const known = unknownModels.length === 0;
    let verdict: BudgetCheck['verdict'];
    if (status.budget === null) verdict = 'no-budget';
    else if (status.spent + onTheWay + estimate > status.budget) verdict = 'crosses';
    else verdict = known ? 'within' : 'unknown';
    return { status, verdict, estimate: known ? estimate : null, unknownModels };
  }
}
