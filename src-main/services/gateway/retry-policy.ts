import pRetry from 'p-retry';
import { around, drawWait, type WaitWindow } from '../../../src-shared/backoff';
import { StudioError } from '../../../src-shared/studio-error';
import { outcomeUnknown } from './outcome-unknown';
import { realtimeRetryable } from './realtime-retry-table';

/**
 * When a failed request is sent again. Every retry in the studio states one of these, so the rules
 * (how many attempts, how long between them, which errors) are read in one place, with one jitter
 * rule: each wait is drawn uniformly inside its window, so clients that failed together do not all
 * come back at the same instant.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** The window of the wait before each retry, [shortest, longest] in ms; the last one repeats. */
  waitsMs: readonly WaitWindow[];
  /** Whether this error is worth another attempt; `earlier` are the run's previous errors. */
  retries(error: StudioError, earlier: readonly StudioError[]): boolean;
}

/** A wait of about `ms`, give or take the studio's jitter. */
const about = around;

export const retryPolicies = {
  /**
   * A realtime generation, exactly as realtime-image-api.md says: at most three attempts, waiting
   * 1-2 s then 3-5 s, by the spec's retry table. The tier's total timeout bounds it all (the client's signal).
   */
  realtime: {
    attempts: 3,
    waitsMs: [
      [1_000, 2_000],
      [3_000, 5_000],
    ],
    retries: realtimeRetryable,
  },
  /** A knowledge-base chunk: a few quick tries while the error says a retry may help. */
  kbChunk: {
    attempts: 3,
    waitsMs: [about(1_000), about(2_000)],
    retries: (error) => error.retryable,
  },
  /** One batch-API request of a download (the item list, an item's content). */
  downloadRequest: {
    attempts: 3,
    waitsMs: [about(1_000), about(2_000)],
    retries: (error) => error.retryable,
  },
  /**
   * Another client of the same account holds its one download slot (429 BATCH_IMAGE_DOWNLOAD_LIMITED):
   * wait, longer each time, for up to about a minute.
   */
  downloadSlot: {
    attempts: 7,
    waitsMs: [about(1_000), about(2_000), about(4_000), about(8_000), about(15_000), about(30_000)],
    retries: (error) => error.code === 'BATCH_IMAGE_DOWNLOAD_LIMITED' || error.httpStatus === 429,
  },
  /**
   * A batch create whose outcome is unknown: sent again with the same Idempotency-Key, so the gateway
   * makes the batch at most once. A definite answer is never resent under this policy.
   */
  unknownOutcome: {
    attempts: 6,
    waitsMs: [about(1_000), about(2_000), about(4_000), about(8_000), about(16_000)],
    retries: outcomeUnknown,
  },
} satisfies Record<string, RetryPolicy>;

export interface RetryOptions {
  /** How much faster than real time the gateway runs (the sandbox): divides the waits. */
  speed?: number;
  /** Tests wait less. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before retry `retry` (1 for the second attempt), with its jitter. */
export function retryWaitMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  return drawWait(policy.waitsMs[Math.min(retry, policy.waitsMs.length) - 1] ?? [0, 0], random);
}

/**
 * Runs `attempt` until it succeeds, or fails in a way the policy does not retry, or the attempts
 * run out; then the last error is thrown as it was. p-retry counts the attempts; the policy's
 * window is waited here rather than by p-retry's own exponential formula, because the realtime spec's
 * windows (1-2 s, 3-5 s) are not a power series, and because tests must be able to skip the waits.
 */
export function withRetry<T>(
  policy: RetryPolicy,
  attempt: (attemptNumber: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const earlier: StudioError[] = [];
  const speed = Math.max(1, options.speed ?? 1);
  return pRetry(attempt, {
    retries: policy.attempts - 1,
    minTimeout: 0,
    shouldRetry: async ({ error, attemptNumber }) => {
      const studioError = StudioError.from(error);
      const again = policy.retries(studioError, earlier);
      earlier.push(studioError);
      if (again)
        await (options.sleep ?? realSleep)(retryWaitMs(policy, attemptNumber, options.random) / speed);
      return again;
    },
  });
}
