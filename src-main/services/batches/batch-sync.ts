import { runIdOf } from '../../../src-shared/batch-run';
import { StudioError } from '../../../src-shared/studio-error';
import type { ListFilters } from '../gateway/batch-client';
import type { WireBatch } from '../gateway/batch-wire';
import { logCaught } from '../log/studio-log';
import type { BatchClients } from './batch-clients';
import type { BatchPoller } from './batch-poller';
import type { BatchRecords } from './batch-records';
import type { BatchUpdates } from './batch-updates';
import type { Submission } from './submission-store';

export interface BatchSyncDeps {
  records: BatchRecords;
  clients: Pick<BatchClients, 'clientFor'>;
  poller: Pick<BatchPoller, 'schedule'>;
  updates: BatchUpdates;
}

/**
 * What the server says a profile's batches are, brought into the records: the batch a send of the
 * studio created, and the server's whole list (batches created elsewhere appear; those it no longer
 * has are marked gone). Every batch added is put on the poll schedule.
 */
export class BatchSync {
  constructor(private deps: BatchSyncDeps) {}

  /** Brings in what the server knows, without bothering anyone when the gateway cannot be reached. */
  syncQuietly(): void {
    this.sync().catch((err: unknown) => logCaught('batch list sync', err));
  }

  /** The batch a submission created, recorded before the submission is marked created. */
  recordCreated(submission: Submission, remote: WireBatch): void {
    const { store } = this.deps.records;
    const existing = store.get(submission.profileId, remote.id);
    const parent = submission.parentBatchId
      ? store.get(submission.profileId, submission.parentBatchId)
      : undefined;
    const parentId = remote.parent_batch_id ?? submission.parentBatchId ?? null;
    const batch = store.put({
      ...(existing ?? {
        pollErrors: 0,
        lastPolledMs: null,
        cancelRequested: false,
        goneOnServer: false,
        hidden: false,
        download: { state: 'none' as const, attempts: 0 },
        firstSeenMs: Date.now(),
      }),
      id: remote.id,
      profileId: submission.profileId,
      remote,
      origin: 'studio',
      submissionId: submission.id,
      runId: runIdOf(submission.draft.metadata),
      parentBatchId: parentId,
      rootBatchId: parent?.rootBatchId ?? parentId ?? remote.id,
    });
    this.deps.poller.schedule(batch);
    this.deps.updates.changed(existing, batch);
  }

  /** Brings in the server's list for the profile: batches created elsewhere appear, without prompts. */
  async sync(filters: ListFilters = {}): Promise<{ added: number; updated: number }> {
    const { records, poller, updates } = this.deps;
    const { store } = records;
    const profileId = records.activeId();
    const remote = await this.deps.clients.clientFor(profileId).listAll(filters);
    let added = 0;
    let updated = 0;
    for (const r of remote) {
      const existing = store.get(profileId, r.id);
      if (existing) {
        if (existing.remote.status === r.status && existing.remote.success_count === r.success_count)
          continue;
        const next = store.put({ ...existing, remote: r });
        poller.schedule(next);
        updates.changed(existing, next);
        updated++;
        continue;
      }
      const parentId = r.parent_batch_id ?? null;
      const parent = parentId ? store.get(profileId, parentId) : undefined;
      const batch = store.put({
        id: r.id,
        profileId,
        remote: r,
        origin: 'server',
        parentBatchId: parentId,
        rootBatchId: parent?.rootBatchId ?? parentId ?? r.id,
        firstSeenMs: Date.now(),
        lastPolledMs: Date.now(),
        pollErrors: 0,
        cancelRequested: false,
        goneOnServer: false,
        hidden: false,
        download: { state: 'none', attempts: 0 },
      });
      poller.schedule(batch);
      // Through changed(): a batch found already completed is downloaded like any other.
      updates.changed(undefined, batch);
      added++;
    }
    // Only the whole list can tell what the server no longer has.
    const whole = Object.values(filters).every((v) => v === undefined || v === '');
    const gone = whole ? await this.markMissingGone(profileId, new Set(remote.map((r) => r.id))) : 0;
    return { added, updated, ...(gone ? { gone } : {}) };
  }

  /**
   * Local batches of the profile the server's list lacks are asked about one by one, and marked gone
   * only on the batch API's own 404: a list that lags must not cost anyone a batch. Files and
   * prompts stay.
   */
  private async markMissingGone(profileId: string, listed: Set<string>): Promise<number> {
    const { store } = this.deps.records;
    const client = this.deps.clients.clientFor(profileId);
    let gone = 0;
    for (const batch of store.list(profileId)) {
      if (batch.goneOnServer || listed.has(batch.id)) continue;
      try {
        await client.get(batch.id);
      } catch (err) {
        const error = StudioError.from(err);
        if (error.code !== 'BATCH_IMAGE_NOT_FOUND') continue;
        const after = store.put({ ...batch, goneOnServer: true, pollError: error.toView() });
        this.deps.updates.changed(batch, after);
        gone++;
      }
    }
    return gone;
  }
}
