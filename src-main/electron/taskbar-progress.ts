import type { BrowserWindow } from 'electron';
import type { BatchView } from '../../src-shared/batch-view';
import type { StudioServices } from '../services/studio-services';

/**
 * The items done over all batches in flight, as one fraction; -1 (no bar) when none is running.
 * Kept apart from the window so it can be reckoned without one.
 */
export class BatchesInFlight {
  private readonly running = new Map<string, { done: number; total: number }>();

  update(batch: BatchView): void {
    if (batch.terminal || batch.itemCount === 0) this.running.delete(batch.id);
    else this.running.set(batch.id, { done: batch.successCount + batch.failCount, total: batch.itemCount });
  }

  fraction(): number {
    let done = 0;
    let total = 0;
    for (const b of this.running.values()) {
      done += b.done;
      total += b.total;
    }
    return total === 0 ? -1 : Math.min(1, done / total);
  }
}

/**
 * Shows the progress of the batches in flight on the taskbar button or the dock icon. Answers a
 * function to call when a new window opens, which starts without a bar.
 */
export function showBatchProgress(
  services: StudioServices,
  window: () => BrowserWindow | undefined,
): () => void {
  const inFlight = new BatchesInFlight();
  for (const batch of services.batches.list()) inFlight.update(batch);
  let shown = Number.NaN;
  const apply = () => {
    const win = window();
    const fraction = inFlight.fraction();
    if (!win || win.isDestroyed() || fraction === shown) return;
    shown = fraction;
    win.setProgressBar(fraction);
  };
  services.events.subscribe((event, payload) => {
    if (event !== 'batch.updated' && event !== 'batch.finished') return;
    inFlight.update(payload as BatchView);
    apply();
  });
  apply();
  return () => {
    shown = Number.NaN;
    apply();
  };
}
