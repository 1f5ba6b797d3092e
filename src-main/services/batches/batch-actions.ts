import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BatchView } from '../../../src-shared/batch-view';
import { StudioError } from '../../../src-shared/studio-error';
import type { BatchClients } from './batch-clients';
import type { BatchDownloader, DownloadMode } from './batch-downloader';
import type { BatchPoller } from './batch-poller';
import type { BatchRecords } from './batch-records';
import type { BatchUpdates } from './batch-updates';
import { isTerminal, toView } from './tracked-batch';

export interface BatchActionsDeps {
  records: BatchRecords;
  clients: Pick<BatchClients, 'clientFor'>;
  poller: Pick<BatchPoller, 'schedule'>;
  downloader: Pick<BatchDownloader, 'enqueue'>;
  updates: BatchUpdates;
  libraryRoot(): string;
}

/** What the user does to one batch of the active profile: cancel it, download it now, delete its outputs or its record. */
export class BatchActions {
  constructor(private deps: BatchActionsDeps) {}

  async cancel(id: string): Promise<BatchView> {
    const { records, poller } = this.deps;
    const before = records.find(id);
    const remote = await this.deps.clients.clientFor(before.profileId).cancel(id);
    const after = records.store.put({
      ...before,
      remote,
      cancelRequested: !isTerminal({ remote, goneOnServer: false }) || remote.status === 'cancelled',
    });
    // Already upstream, a cancel takes effect later: keep polling, soon, until a terminal state.
    poller.schedule(after, true);
    this.deps.updates.changed(before, after);
    return toView(after);
  }

  /**
   * Download now. `replace` downloads the whole batch and replaces its library folder (marks kept);
   * `missing` fetches only the images its folder lacks, or the whole batch when it has no folder.
   */
  async download(id: string, mode: DownloadMode = 'replace'): Promise<BatchView> {
    const { records } = this.deps;
    const batch = records.find(id);
    if (batch.remote.status !== 'completed') {
      throw new StudioError({
        code: 'BATCH_IMAGE_NOT_READY',
        message: `The batch is ${batch.remote.status}; results come once it is completed.`,
      });
    }
    void this.deps.downloader.enqueue(batch.profileId, id, mode);
    return toView(records.find(id));
  }

  async deleteOutputs(id: string): Promise<BatchView> {
    const { records, clients } = this.deps;
    const before = records.find(id);
    const remote =
      (await clients.clientFor(before.profileId).deleteOutputs(id)) ??
      (await clients.clientFor(before.profileId).get(id));
    const after = records.store.put({ ...before, remote });
    this.deps.updates.changed(before, after);
    return toView(after);
  }

  /** Removes the batch from the gateway's list (terminal batches only); local files stay unless asked. */
  async deleteRecord(id: string, deleteLocalFiles: boolean): Promise<void> {
    const { records } = this.deps;
    const batch = records.find(id);
    if (!isTerminal(batch)) {
      throw new StudioError({
        code: 'BATCH_IMAGE_RECORD_DELETE_NOT_READY',
        message: 'Only a finished batch can be removed.',
      });
    }
    if (!batch.goneOnServer) {
      try {
        await this.deps.clients.clientFor(batch.profileId).deleteRecord(id);
      } catch (err) {
        if (StudioError.from(err).code !== 'BATCH_IMAGE_NOT_FOUND') throw err;
      }
    }
    if (deleteLocalFiles && batch.download.folder) {
      // A file may appear in the folder while it is being removed (the background hashing writes
      // hashes.json beside the images): rm lists the folder again on ENOTEMPTY instead of failing.
      await rm(join(this.deps.libraryRoot(), batch.download.folder), {
        recursive: true,
        force: true,
        maxRetries: 5,
        retryDelay: 20,
      });
    }
    const after = records.store.put({
      ...batch,
      hidden: true,
      goneOnServer: true,
      download: deleteLocalFiles ? { state: 'none', attempts: 0 } : batch.download,
    });
    this.deps.updates.updated(after);
  }
}
