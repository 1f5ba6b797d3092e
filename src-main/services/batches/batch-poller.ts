import { StudioError } from '../../../src-shared/studio-error';
import type { BatchClient } from '../gateway/batch-client';
import type { BatchStore } from './batch-store';
import { backoffDelayMs, pollDelayMs } from './poll-schedule';
import { isTerminal, type TrackedBatch } from './tracked-batch';

/** Real or simulated time: the poll benchmark runs 30 minutes of polling in a moment. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface PollerDeps {
  store: BatchStore;
  clientFor(profileId: string): BatchClient;
  profiles(): string[];
  onChange(before: TrackedBatch, after: TrackedBatch): void;
  clock?: Clock;
  random?: () => number;
  /**
   * How much faster than real time a profile's gateway runs: the built-in sandbox compresses
   * minutes into seconds, and its schedule compresses with it. 1 for real gateways.
   */
  speedFor?(profileId: string): number;
}

const key = (profileId: string, id: string) => `${profileId}\u0000${id}`;

/**
 * One scheduler for every batch still in flight, across profiles. Each batch is polled on the
 * spec's schedule by its age, with jitter; errors back it off; terminal batches are never polled.
 * The renderer never polls: changes leave as events.
 */
export class BatchPoller {
  private due = new Map<string, number>();
  private timer: unknown;
  private timerAt = Infinity;
  private stopped = true;
  private polling = false;
  private round: Promise<void> = Promise.resolve();
  private clock: Clock;
  private random: () => number;

  constructor(private deps: PollerDeps) {
    this.clock = deps.clock ?? systemClock;
    this.random = deps.random ?? Math.random;
  }

  /** Ages are counted from the gateway's creation time, so a restart resumes where the schedule was. */
  private ageMs(batch: TrackedBatch, now: number): number {
    const created = batch.remote.created_at ? batch.remote.created_at * 1000 : batch.firstSeenMs;
    return Math.max(0, now - Math.min(created, now));
  }

  private speed(batch: TrackedBatch): number {
    return Math.max(1, this.deps.speedFor?.(batch.profileId) ?? 1);
  }

  /** The schedule's delay for a batch, in this gateway's time. */
  private delayFor(batch: TrackedBatch, at: number): number {
    const speed = this.speed(batch);
    return pollDelayMs(this.ageMs(batch, at) * speed, this.random) / speed;
  }

  start(): void {
    this.stopped = false;
    for (const profileId of this.deps.profiles()) {
      for (const batch of this.deps.store.list(profileId)) this.schedule(batch);
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** Puts a batch on the schedule: next poll one delay after the last one (or now, if overdue). */
  schedule(batch: TrackedBatch, soon = false): void {
    const k = key(batch.profileId, batch.id);
    if (isTerminal(batch) || batch.hidden) {
      this.due.delete(k);
      return;
    }
    const now = this.clock.now();
    const last = batch.lastPolledMs ?? batch.firstSeenMs;
    const at = soon ? now + 1_000 / this.speed(batch) : last + this.delayFor(batch, last);
    this.due.set(k, at);
    this.arm();
  }

  isScheduled(profileId: string, id: string): boolean {
    return this.due.has(key(profileId, id));
  }

  nextDueAt(): number | undefined {
    const times = [...this.due.values()];
    return times.length ? Math.min(...times) : undefined;
  }

  private arm(): void {
    if (this.stopped || this.polling) return;
    const next = this.nextDueAt();
    if (next === undefined || next >= this.timerAt) return;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.round = this.pollDue();
      },
      Math.max(0, next - this.clock.now()),
    );
  }

  /** Resolves when the round of polls under way (if any) has finished and the next timer is set. */
  settled(): Promise<void> {
    return this.round;
  }

  /** Polls every batch whose time has come, a few at a time, then sets the next timer. */
  async pollDue(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const now = this.clock.now();
      const ready = [...this.due.entries()].filter(([, at]) => at <= now).map(([k]) => k);
      for (let i = 0; i < ready.length; i += 4) {
        await Promise.all(ready.slice(i, i + 4).map((k) => this.pollOne(k)));
      }
    } finally {
      this.polling = false;
      this.arm();
    }
  }

  private async pollOne(k: string): Promise<void> {
    const [profileId, id] = k.split('\u0000') as [string, string];
    const before = this.deps.store.get(profileId, id);
    if (!before || isTerminal(before)) {
      this.due.delete(k);
      return;
    }
    const startedAt = this.clock.now();
    let after: TrackedBatch;
    try {
      const remote = await this.deps.clientFor(profileId).get(id);
      after = { ...before, remote, lastPolledMs: startedAt, pollErrors: 0, pollError: undefined };
    } catch (err) {
      const error = StudioError.from(err);
      if (error.code === 'BATCH_IMAGE_NOT_FOUND') {
        after = { ...before, goneOnServer: true, lastPolledMs: startedAt, pollError: error.toView() };
      } else {
        const errors = before.pollErrors + 1;
        after = this.deps.store.put({ ...before, pollErrors: errors, pollError: error.toView() });
        const delay = backoffDelayMs(this.delayFor(before, startedAt), errors, undefined, this.random);
        this.due.set(k, startedAt + delay);
        this.deps.onChange(before, after);
        return;
      }
    }
    // Only the remote object and poll bookkeeping change here; anything else written meanwhile stays.
    const latest = this.deps.store.get(profileId, id) ?? before;
    const merged = this.deps.store.put({
      ...latest,
      remote: after.remote,
      goneOnServer: after.goneOnServer,
      lastPolledMs: after.lastPolledMs,
      pollErrors: after.pollErrors,
      pollError: after.pollError,
    });
    this.schedule(merged);
    this.deps.onChange(before, merged);
  }
}
