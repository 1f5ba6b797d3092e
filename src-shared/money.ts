/**
 * The money rules, once, for main and the windows alike: what a batch counts as estimated, held,
 * actual and spent, which day it belongs to, and how sums are rounded. Spending, the cost totals
 * and a run's header on the Batches screen all add up batches through these, so one batch (and
 * one run) shows the same figures on every screen.
 */

/** The figures of a batch the rules read: the gateway's own numbers, and whether it has ended. */
export interface BatchMoney {
  status: string;
  /** Ended for good (a terminal status, or gone from the server): nothing more will be held. */
  terminal: boolean;
  estimatedCost: number;
  holdAmount: number;
  actualCost: number | null;
}

/** What one batch counts as, in the gateway's balance units. */
export interface MoneyFigures {
  /** Its estimate, unless it ended without being charged (cancelled or failed): then nothing. */
  estimated: number;
  /** Its hold while outstanding: until it settles or ends, when the hold goes back to the balance. */
  held: number;
  /** Its settled cost, 0 until settled. */
  actual: number;
  /** The one figure it counts as spent: actual where settled, else its hold, else its estimate. */
  spent: number;
}

/**
 * Terminal states that end without the estimate being charged: the hold went back to the balance.
 * Their estimate is left out of every sum (a run's too): it is money that was never spent.
 */
const NOT_CHARGED = new Set(['cancelled', 'failed']);

/** Sums of amounts to the gateway's precision (micro-units), so 0.1 + 0.2 reads 0.3. */
export function roundMoney(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}

/** What one batch counts as (see MoneyFigures). */
export function moneyOf(b: BatchMoney): MoneyFigures {
  const charged = !NOT_CHARGED.has(b.status);
  const actual = b.actualCost ?? 0;
  const estimated = charged ? b.estimatedCost : 0;
  const held = b.actualCost === null && !b.terminal ? b.holdAmount : 0;
  let spent: number;
  if (b.actualCost !== null) spent = b.actualCost;
  else if (!charged) spent = 0;
  else if (b.holdAmount > 0) spent = b.holdAmount;
  else spent = b.estimatedCost;
  return { estimated, held, actual, spent };
}

/**
 * Several batches added up (a day, a month, a run), rounded. `settled` says whether any of them has
 * an actual cost yet: a sum of none reads as "no actual cost", not as zero.
 */
export function sumMoney(
  batches: readonly BatchMoney[],
): MoneyFigures & { batches: number; settled: boolean } {
  const sum = { batches: 0, estimated: 0, held: 0, actual: 0, spent: 0, settled: false };
  for (const b of batches) {
    const f = moneyOf(b);
    sum.batches += 1;
    sum.estimated += f.estimated;
    sum.held += f.held;
    sum.actual += f.actual;
    sum.spent += f.spent;
    if (b.actualCost !== null) sum.settled = true;
  }
  return {
    ...sum,
    estimated: roundMoney(sum.estimated),
    held: roundMoney(sum.held),
    actual: roundMoney(sum.actual),
    spent: roundMoney(sum.spent),
  };
}

/** The zone this process runs in: the user's, for a desktop window and for main on the same machine. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The calendar day a batch belongs to: the day of its creation in the user's time zone,
 * `YYYY-MM-DD`. Every per-day figure (the spending chart, the cost days) groups by this.
 */
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
