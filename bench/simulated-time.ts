// Simulated time for the poll benchmark: an hour of polling runs in seconds, and the same hour
// passes for the in-process sandbox, whose batches move through their phases by `Date.now()`.
// Timers fire in time order, each awaited to the end (HTTP included) before time moves on, so no
// request is ever in flight while the clock jumps.
import type { Clock } from '../src-main/services/batches/batch-poller';

interface Timer {
  at: number;
  id: number;
  fn: () => unknown;
}

export class SimulatedTime {
  private nowMs: number;
  private timers: Timer[] = [];
  private nextId = 1;
  private realDateNow = Date.now;

  constructor(startMs: number) {
    this.nowMs = startMs;
  }

  /** From here on `Date.now()` answers simulated time, for the sandbox in this process. */
  install(): void {
    Date.now = () => this.nowMs;
  }

  uninstall(): void {
    Date.now = this.realDateNow;
  }

  now(): number {
    return this.nowMs;
  }

  /** Moves time to `ms` directly; only for setting the scene before anything is scheduled. */
  jumpTo(ms: number): void {
    this.nowMs = ms;
  }

  readonly clock: Clock = {
    now: () => this.nowMs,
    setTimeout: (fn, ms) => this.at(this.nowMs + ms, fn),
    clearTimeout: (id) => {
      const i = this.timers.findIndex((t) => t.id === id);
      if (i >= 0) this.timers.splice(i, 1);
    },
  };

  /** Runs `fn` at simulated time `ms`; its promise, if any, is awaited before time moves on. */
  at(ms: number, fn: () => unknown): number {
    const id = this.nextId++;
    this.timers.push({ at: ms, id, fn });
    return id;
  }

  /** Fires every timer due up to `endMs`, in order; `afterEach` lets callers wait for follow-up work. */
  async runUntil(endMs: number, afterEach: () => Promise<void>): Promise<void> {
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const timer = this.timers[0];
      if (!timer || timer.at > endMs) break;
      this.timers.shift();
      this.nowMs = Math.max(this.nowMs, timer.at);
      await timer.fn();
      await afterEach();
    }
    this.nowMs = endMs;
  }
}
