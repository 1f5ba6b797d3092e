/**
 * When the studio looks for updates. The first check waits about 30 s, so it never competes with the
 * window opening and the batches resuming; then one every 4 h. Each wait is spread by a random part
 * so that a fleet of studios started at 9 a.m. does not knock on the feed in the same second. After a
 * failed check the next comes sooner but backs off (5 min, 10, 20… up to the usual 4 h), so a feed
 * that is down is not hammered and one that is back is noticed within minutes.
 */
export const FIRST_CHECK_MS = 30_000;
export const CHECK_EVERY_MS = 4 * 60 * 60_000;
export const RETRY_FIRST_MS = 5 * 60_000;
/** The spread: each wait is lengthened by up to this fraction of itself. */
export const JITTER = 0.1;

/** `random` is in [0, 1): Math.random in the app, a fixed value in tests. */
function withJitter(ms: number, random: () => number): number {
  return Math.round(ms * (1 + JITTER * random()));
}

export function firstCheckDelay(random: () => number): number {
  return withJitter(FIRST_CHECK_MS, random);
}

/** The wait after a check; `failures` counts the failed checks in a row (0 after a success). */
export function nextCheckDelay(failures: number, random: () => number): number {
  if (failures <= 0) return withJitter(CHECK_EVERY_MS, random);
  const backoff = Math.min(CHECK_EVERY_MS, RETRY_FIRST_MS * 2 ** Math.min(failures - 1, 16));
  return withJitter(backoff, random);
}
