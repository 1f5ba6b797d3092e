import { backoffMs } from '../../../src-shared/backoff';
import type { SettingsService } from '../settings/settings-service';
import type { BatchDownloader } from './batch-downloader';
import type { BatchRecords } from './batch-records';
import type { BatchUpdates } from './batch-updates';
import type { TrackedBatch } from './tracked-batch';

/**
 * How many download attempts (each ZIP try counts) a failed download is retried for by itself;
 * beyond it only the user's Download now tries again.
 */
export const DOWNLOAD_RETRY_CAP = 12;

export interface DownloadSchedulerDeps {
  records: BatchRecords;
  downloader: Pick<BatchDownloader, 'enqueue'>;
  updates: BatchUpdates;
  /** Its `autoDownload` switch: completed batches are downloaded without anyone asking. */
  settings: Pick<SettingsService, 'get'>;
  speedFor(profileId: string): number;
}

/**
 * When a completed batch is downloaded without anyone pressing Download now, always fetching only
 * what its library folder lacks (never a replacement by itself), and never a batch that is hidden
 * or gone from the server:
 * - when the studio learns it is completed (a poll, a sync, a late create answer), if auto-download
 *   is on; and at start, for one still undownloaded;
 * - at start, whatever the setting, when a kill or a quit interrupted its download;
 * - after a failure time can fix (a retryable error, or the network): again after
 *   5 s × 2^attempts, at most 30 minutes (shortened by the gateway's speed), until
 *   DOWNLOAD_RETRY_CAP attempts. The retry time is kept on the batch, so a restart keeps it.
 */
export class DownloadScheduler {
  private retryTimers = new Map<string, NodeJS.Timeout>();

  constructor(private deps: DownloadSchedulerDeps) {
    // However the studio learned a batch is completed (poll, sync, a late create answer), an
    // undownloaded one is fetched: maybeDownload starts nothing twice.
    deps.updates.onChange((_before, after) => this.maybeDownload(after, false));
  }

  /** Hears the downloader's every change of a batch's download. */
  downloadChanged(batch: TrackedBatch): void {
    // A failure leaves with its retry time, or with none when nothing will retry it.
    this.deps.updates.updated(batch.download.state === 'failed' ? this.retryDownloadLater(batch) : batch);
  }

  /** At start: half-done downloads are discarded and redone, and failed ones wait for their retry again. */
  resume(): void {
    for (const profileId of this.deps.records.profileIds()) {
      for (const batch of this.deps.records.store.list(profileId)) {
        this.maybeDownload(batch, true);
        if (batch.download.state === 'failed') this.resumeRetry(batch);
      }
    }
  }

  stop(): void {
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
  }

  private maybeDownload(batch: TrackedBatch, resuming: boolean): void {
    if (batch.remote.status !== 'completed' || batch.hidden || batch.goneOnServer) return;
    const d = batch.download.state;
    const interrupted = resuming && (d === 'queued' || d === 'downloading' || d === 'verifying');
    const auto = d === 'none' && this.deps.settings.get().autoDownload;
    // Never a replacement by itself: a batch whose folder is in the library only gets what it lacks.
    if (interrupted || auto) void this.deps.downloader.enqueue(batch.profileId, batch.id, 'missing');
  }

  /** Whether the studio will try a failed download again by itself. */
  private willRetry(batch: TrackedBatch): boolean {
    const { error, attempts } = batch.download;
    if (error && !error.retryable && error.source !== 'network') return false;
    if (attempts >= DOWNLOAD_RETRY_CAP) return false;
    return batch.remote.status === 'completed' && !batch.goneOnServer && !batch.hidden;
  }

  /**
   * A download that failed in a way time can fix is tried again, later each time: a paid image is
   * never given up on while the gateway still has it. The retry time is kept on the batch, so the
   * pages can say when, and a restart keeps it. Answers the batch as stored.
   */
  private retryDownloadLater(batch: TrackedBatch): TrackedBatch {
    const { store } = this.deps.records;
    if (!this.willRetry(batch)) {
      if (batch.download.nextRetryAt === undefined) return batch;
      return store.update(batch.profileId, batch.id, (b) => ({
        ...b,
        download: { ...b.download, nextRetryAt: undefined },
      }))!;
    }
    const attempts = batch.download.attempts;
    // 5 s doubled per failed attempt up to half an hour, with the studio's jitter: studios of a team
    // whose downloads failed together (the gateway was down) do not all come back at once.
    const delay = backoffMs(5_000, 30 * 60_000, attempts) / this.deps.speedFor(batch.profileId);
    const at = Math.round(Date.now() + delay);
    const next = store.update(batch.profileId, batch.id, (b) => ({
      ...b,
      download: { ...b.download, nextRetryAt: at },
    }))!;
    this.retryAt(next, at);
    return next;
  }

  /** At start: a failed download's retry is set again for its time (now, if that has passed). */
  private resumeRetry(batch: TrackedBatch): void {
    const at = batch.download.nextRetryAt;
    if (at === undefined || !this.willRetry(batch)) {
      const next = this.retryDownloadLater(batch);
      if (next !== batch) this.deps.updates.updated(next);
      return;
    }
    this.retryAt(batch, at);
  }

  private retryAt(batch: TrackedBatch, at: number): void {
    const key = `${batch.profileId}/${batch.id}`;
    clearTimeout(this.retryTimers.get(key));
    const timer = setTimeout(
      () => {
        this.retryTimers.delete(key);
        const current = this.deps.records.store.get(batch.profileId, batch.id);
        // Only the retry that was announced: a Download now since then started its own.
        if (current?.download.state === 'failed' && current.download.nextRetryAt === at && !current.hidden)
          void this.deps.downloader.enqueue(batch.profileId, batch.id, 'missing');
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref();
    this.retryTimers.set(key, timer);
  }
}
