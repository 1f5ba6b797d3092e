import { backoffMs } from '../../../src-shared/backoff';

/**
 * The batch API's polling advice (batch-image-api.md, Events): every 10 to 15 s for the first two
 * minutes after submission, then every 30 s, rising gradually to 60 s for long batches. Pure, so
 * the poller and its benchmark agree on every delay.
 */
export function pollDelayMs(ageMs: number, random: () => number): number {
  if (ageMs < 120_000) return 10_000 + random() * 5_000;
  const base =
    ageMs < 600_000 ? 30_000 : ageMs < 1_800_000 ? 30_000 + ((ageMs - 600_000) / 1_200_000) * 30_000 : 60_000;
  // Jitter of ±10 % keeps many batches from polling in lockstep.
  return base * (0.9 + random() * 0.2);
}

/** After 429, 5xx or a network error: back off, honouring Retry-After, up to five minutes. */
export function backoffDelayMs(
  scheduled: number,
  errors: number,
  retryAfterMs: number | undefined,
  random: () => number,
): number {
  return Math.max(backoffMs(scheduled, 300_000, errors, random), retryAfterMs ?? 0);
}
