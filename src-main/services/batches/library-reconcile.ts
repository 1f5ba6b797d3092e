import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BatchView } from '../../../src-shared/batch-view';
import type { EventHub } from '../dispatch/event-hub';
import { batchFolderName, folderContents } from '../library/folders/batch-folder';
import { folderSignature } from '../library/folders/batch-folder-record';
import { logCaught } from '../log/studio-log';
import type { BatchDownloader } from './batch-downloader';
import type { BatchRecords } from './batch-records';
import type { BatchUpdates } from './batch-updates';
import { toView, type TrackedBatch } from './tracked-batch';

export interface LibraryReconcileDeps {
  records: BatchRecords;
  downloader: Pick<BatchDownloader, 'isRunning'>;
  updates: BatchUpdates;
  events: Pick<EventHub, 'subscribe'>;
  libraryRoot(): string;
}

/**
 * The batches' records of what is in the library, kept true to the library's folders: what a
 * batch's record says of its folder (there, lacking some images, gone) is what the folder holds.
 */
export class LibraryReconcile {
  /** Per library folder, the signature its missing count was last taken at: unchanged folders are not read. */
  private folderChecks = new Map<string, string>();
  private reconciling: Promise<void> = Promise.resolve();
  private unsubscribe?: () => void;

  constructor(private deps: LibraryReconcileDeps) {}

  /** Reconciles again whenever the library's folders, or the library folder itself, may have changed. */
  watch(): void {
    // The catalog's syncs notice folders deleted or changed in the file manager; a new library
    // folder in Settings changes where every batch's folder is looked for.
    this.unsubscribe?.();
    this.unsubscribe = this.deps.events.subscribe((event, payload) => {
      if (
        (event === 'library.changed' && (payload as { reason?: string }).reason === 'folders') ||
        event === 'settings.changed'
      )
        void this.reconcileLibrary().catch((err: unknown) => logCaught('library folders of batches', err));
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** One batch, its library folder looked at first: the detail says what its folder lacks now. */
  async detail(id: string): Promise<BatchView> {
    const batch = this.deps.records.find(id);
    if (!batch.download.folder || this.deps.downloader.isRunning(batch.profileId, id)) return toView(batch);
    const next = await this.checkFolder(this.deps.libraryRoot(), batch, true).catch((err: unknown) => {
      logCaught('library folder of a batch', err);
      return batch;
    });
    if (next !== batch) this.deps.updates.changed(batch, next);
    return toView(next);
  }

  /**
   * Every batch's library record against the library's folders, one pass at a time:
   * - a recorded folder no longer there (deleted, or another library folder chosen in Settings)
   *   is cleared, so the batch no longer reads "in the library", and a batch the server still
   *   has is downloaded again when auto-download is on;
   * - a folder lacking some of its images says how many (for "Fetch N missing images");
   * - a batch not recorded in the library whose folder is there (the earlier library folder
   *   chosen again) is in the library again, without downloading anything.
   * A batch being downloaded is left alone: its folder is mid-replacement.
   */
  reconcileLibrary(): Promise<void> {
    const run = this.reconciling.then(() => this.reconcileOnce());
    this.reconciling = run.catch(() => undefined);
    return run;
  }

  private async reconcileOnce(): Promise<void> {
    const { records, downloader, updates } = this.deps;
    const root = this.deps.libraryRoot();
    for (const profileId of records.profileIds()) {
      for (const { id } of records.store.list(profileId)) {
        // Read again at its turn: an earlier check of this pass (or the detail's) may have moved it.
        const batch = records.store.get(profileId, id);
        if (!batch || downloader.isRunning(profileId, id)) continue;
        const next = await this.checkFolder(root, batch);
        if (next !== batch) updates.changed(batch, next);
      }
    }
  }

  /** One batch's library record against its folder; answers the batch, as stored after any change. */
  private async checkFolder(root: string, batch: TrackedBatch, precise = false): Promise<TrackedBatch> {
    // A library folder that is not there at all (a drive not plugged in) says nothing about its
    // batches: they are not cleared, or every one would be downloaded again onto the wrong disk.
    if (!existsSync(root)) return batch;
    const folder = batch.download.folder;
    if (!folder) {
      // Also a download killed after its folder was published but before the batch said so.
      const name = batchFolderName(batch.remote);
      if (!existsSync(join(root, name))) return batch;
      const contents = await folderContents(root, name);
      if (contents?.record.batch.id !== batch.id) return batch;
      return this.putDownload(batch, {
        state: 'done',
        folder: name,
        images: contents.record.images.length,
        missing: contents.missing.length || undefined,
        error: undefined,
        nextRetryAt: undefined,
      });
    }
    const dir = join(root, folder);
    if (!existsSync(dir)) {
      this.folderChecks.delete(dir);
      return this.putDownload(batch, {
        state:
          batch.download.state === 'done' || batch.download.state === 'failed'
            ? 'none'
            : batch.download.state,
        folder: undefined,
        images: undefined,
        missing: undefined,
        completedAt: undefined,
        source: undefined,
        error: batch.download.state === 'failed' ? undefined : batch.download.error,
        nextRetryAt: undefined,
      });
    }
    const signature = await folderSignature(dir);
    if (this.folderChecks.get(dir) === signature) return batch;
    this.folderChecks.set(dir, signature);
    // A start with a large library lists each folder's images rather than reading every record:
    // as many files as the batch had images is whole. The detail (`precise`) reads the record.
    const expected = batch.download.images;
    const count = precise
      ? undefined
      : await readdir(join(dir, 'images')).then(
          (names) => names.length,
          () => 0,
        );
    const missing =
      expected !== undefined && count !== undefined && count >= expected
        ? undefined
        : (await folderContents(root, folder))?.missing.length || undefined;
    if (missing === batch.download.missing) return batch;
    return this.putDownload(batch, { missing });
  }

  private putDownload(batch: TrackedBatch, download: Partial<TrackedBatch['download']>): TrackedBatch {
    return this.deps.records.store.put({ ...batch, download: { ...batch.download, ...download } });
  }
}
