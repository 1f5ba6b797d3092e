import type { BatchView } from '../../../src-shared/batch-view';
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

/** Hold released, nothing charged: the spec's failed and cancelled batches that never settled. */
const NOT_CHARGED = new Set(['cancelled', 'failed']);
const DAY_MS = 86_400_000;

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * The one figure a batch counts as spent: its actual (settled) cost where known, else its hold while
 * outstanding, else its estimate. All three are the gateway's own numbers for that batch.
 */
export function spentOf(b: BatchView): { spent: number; estimated: number; held: number; actual: number } {
  const charged = !NOT_CHARGED.has(b.status);
  const actual = b.actualCost ?? 0;
  const estimated = charged ? b.estimatedCost : 0;
  // A hold is outstanding until the batch settles or ends.
  const held = b.actualCost === null && !b.terminal ? b.holdAmount : 0;
  let spent: number;
  if (b.actualCost !== null) spent = b.actualCost;
  else if (!charged) spent = 0;
  else if (b.holdAmount > 0) spent = b.holdAmount;
  else spent = b.estimatedCost;
  return { spent, estimated, held, actual };
}

/** The calendar day of a unix-seconds instant in a time zone, `YYYY-MM-DD`. */
export function dayIn(timeZone: string, unixSeconds: number): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(unixSeconds * 1000));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Calendar arithmetic on `YYYY-MM-DD`, independent of any zone. */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

function emptyDay(day: string): SpendingDay {
  return { day, batches: 0, estimated: 0, held: 0, actual: 0, spent: 0 };
}

function add(into: Omit<SpendingDay, 'day'>, b: BatchView): void {
  const f = spentOf(b);
  into.batches += 1;
  into.estimated += f.estimated;
  into.held += f.held;
  into.actual += f.actual;
  into.spent += f.spent;
}

function rounded<T extends Omit<SpendingDay, 'day'>>(d: T): T {
  return {
    ...d,
    estimated: round(d.estimated),
    held: round(d.held),
    actual: round(d.actual),
    spent: round(d.spent),
  };
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
    const days = new Map<string, SpendingDay>();
    for (let d = from; d <= to; d = addDays(d, 1)) days.set(d, emptyDay(d));
    const totals = emptyDay('');
    for (const b of this.deps.batches()) {
      const entry = days.get(dayIn(timeZone, b.createdAt));
      if (!entry) continue;
      add(entry, b);
      add(totals, b);
    }
    const { day: _day, ...sum } = rounded(totals);
    return {
      profileId: this.deps.profileId(),
      timeZone,
      from,
      to,
      days: [...days.values()].map(rounded),
      totals: sum,
    };
  }

  /** This calendar month so far, against the budget. */
  month(timeZone: string): BudgetStatus {
    const month = dayIn(timeZone, this.now() / 1000).slice(0, 7);
    const sum = emptyDay('');
    for (const b of this.deps.batches()) if (dayIn(timeZone, b.createdAt).startsWith(month)) add(sum, b);
    const budget = this.deps.monthlyBudget();
    const spent = round(sum.spent);
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
