/**
 * Waiting before trying again, once, for main and the windows alike: a wait doubles from a first
 * one up to a ceiling, and every wait is drawn uniformly inside its window (jitter), so clients that
 * failed together do not all come back at the same instant. Each caller keeps its own constants
 * (retry-policy.ts, poll-schedule.ts, download-scheduler.ts, the window's event-stream.ts).
 */

/** The studio's jitter: a wait of about `ms` is anywhere within a fifth of it either way. */
const JITTER = 0.2;

/** A wait's window, [shortest, longest] in ms. */
export type WaitWindow = readonly [number, number];

/** The window of a wait of about `ms`: give or take the jitter. */
export function around(ms: number): WaitWindow {
  return [ms * (1 - JITTER), ms * (1 + JITTER)];
}

/** A wait drawn uniformly inside its window. */
export function drawWait([low, high]: WaitWindow, random: () => number = Math.random): number {
  return low + random() * (high - low);
}

/** `firstMs` doubled `doublings` times (none below zero), never above `longestMs`. Without jitter. */
export function doubledMs(firstMs: number, longestMs: number, doublings: number): number {
  return Math.min(longestMs, firstMs * 2 ** Math.max(0, doublings));
}

/** The doubling wait with the studio's jitter: about `doubledMs`. */
export function backoffMs(
  firstMs: number,
  longestMs: number,
  doublings: number,
  random: () => number = Math.random,
): number {
  return drawWait(around(doubledMs(firstMs, longestMs, doublings)), random);
}
