import { describe, expect, it } from 'vitest';
import type { DownloadProgress } from '../../src-shared/batch-view';
import { ProgressCoalescer, type CoalescerTimers } from '../services/batches/progress-coalescer';

/** A hand-driven clock, so the test checks what leaves, not how long anything takes. */
function manualTimers(): CoalescerTimers & { advance(ms: number): void } {
  let now = 0;
  let queue: { at: number; fn: () => void; live: boolean }[] = [];
  return {
    now: () => now,
    later(fn, ms) {
      const entry = { at: now + ms, fn, live: true };
      queue.push(entry);
      return { cancel: () => void (entry.live = false) };
    },
    advance(ms) {
      now += ms;
      const due = queue.filter((e) => e.live && e.at <= now);
      queue = queue.filter((e) => !due.includes(e));
      for (const e of due) e.fn();
    },
  };
}

describe('download progress coalescing', () => {
  it('sends a few events per second per batch from 5,300 chunks, and always the last', () => {
    const timers = manualTimers();
    const sent: DownloadProgress[] = [];
    const coalescer = new ProgressCoalescer((p) => sent.push(p), 250, timers);
    const total = 575 * 1024 * 1024;
    const chunks = 5300;
    // 5,300 chunks over 10 simulated seconds, as a 575 MB ZIP arrives.
    for (let i = 1; i <= chunks; i++) {
      coalescer.push({
        batchId: 'b1',
        phase: 'downloading',
        received: Math.round((total * i) / chunks),
        total,
      });
      if (i % 53 === 0) timers.advance(100);
    }
    timers.advance(1000);
    expect(sent.length).toBeLessThanOrEqual(10 * 4 + 2);
    expect(sent.length).toBeGreaterThan(5);
    expect(sent.at(-1)).toMatchObject({ phase: 'downloading', received: total });
    coalescer.push({ batchId: 'b1', phase: 'done', received: 0, images: 3, imagesTotal: 3 });
    expect(sent.at(-1)?.phase).toBe('done');
  });

  it('never skips a phase nor holds back the end, and keeps batches apart', () => {
    const timers = manualTimers();
    const sent: DownloadProgress[] = [];
    const coalescer = new ProgressCoalescer((p) => sent.push(p), 250, timers);
    coalescer.push({ batchId: 'a', phase: 'downloading', received: 1 });
    coalescer.push({ batchId: 'a', phase: 'downloading', received: 2 });
    coalescer.push({ batchId: 'b', phase: 'items', received: 0, images: 1, imagesTotal: 2 });
    coalescer.push({ batchId: 'a', phase: 'verifying', received: 0, images: 1, imagesTotal: 9 });
    coalescer.push({ batchId: 'a', phase: 'failed', received: 0 });
    expect(sent.map((p) => `${p.batchId}:${p.phase}:${p.received}`)).toEqual([
      'a:downloading:1',
      'b:items:0',
      'a:downloading:2',
      'a:verifying:0',
      'a:failed:0',
    ]);
  });

  it('flush sends what is held back', () => {
    const timers = manualTimers();
    const sent: DownloadProgress[] = [];
    const coalescer = new ProgressCoalescer((p) => sent.push(p), 250, timers);
    coalescer.push({ batchId: 'a', phase: 'downloading', received: 1 });
    coalescer.push({ batchId: 'a', phase: 'downloading', received: 7 });
    expect(sent).toHaveLength(1);
    coalescer.flush();
    expect(sent.at(-1)?.received).toBe(7);
  });
});
