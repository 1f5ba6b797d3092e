import type { DownloadProgress } from '../../../src-shared/batch-view';

export interface CoalescerTimers {
  now(): number;
  later(fn: () => void, ms: number): { cancel(): void };
}

const realTimers: CoalescerTimers = {
  now: () => Date.now(),
  later(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref?.();
    return { cancel: () => clearTimeout(timer) };
  },
};

/**
 * Network chunks arrive thousands of times per batch; every page needs a few updates a second.
 * Per batch, at most one event leaves per interval, the latest one; a change of phase (and the end,
 * done or failed) leaves at once, so the last event always arrives and no phase is skipped.
 */
export class ProgressCoalescer {
  private pending = new Map<string, { progress: DownloadProgress; timer: { cancel(): void } }>();
  private lastSent = new Map<string, { at: number; phase: DownloadProgress['phase'] }>();

  constructor(
    private send: (progress: DownloadProgress) => void,
    private intervalMs = 250,
    private timers: CoalescerTimers = realTimers,
  ) {}

  push(progress: DownloadProgress): void {
    const id = progress.batchId;
    const last = this.lastSent.get(id);
    const phaseChanged = !last || last.phase !== progress.phase;
    const ended = progress.phase === 'done' || progress.phase === 'failed';
    const due = !last || this.timers.now() - last.at >= this.intervalMs;
    const waiting = this.pending.get(id);
    if (phaseChanged || ended || due) {
      // What was held back belongs before this one, when it is of another phase.
      if (waiting) {
        waiting.timer.cancel();
        this.pending.delete(id);
        if (waiting.progress.phase !== progress.phase) this.emit(waiting.progress);
      }
      this.emit(progress);
      if (ended) this.lastSent.delete(id);
      return;
    }
    if (waiting) {
      waiting.progress = progress;
      return;
    }
    const wait = Math.max(0, this.intervalMs - (this.timers.now() - last.at));
    const timer = this.timers.later(() => {
      const held = this.pending.get(id);
      this.pending.delete(id);
      if (held) this.emit(held.progress);
    }, wait);
    this.pending.set(id, { progress, timer });
  }

  private emit(progress: DownloadProgress): void {
    if (progress.phase !== 'done' && progress.phase !== 'failed')
      this.lastSent.set(progress.batchId, { at: this.timers.now(), phase: progress.phase });
    this.send(progress);
  }

  /** Sends whatever is held back now: on stop, so the last state is never lost. */
  flush(): void {
    for (const [id, held] of this.pending) {
      held.timer.cancel();
      this.pending.delete(id);
      this.emit(held.progress);
    }
  }
}
