import { runIdOf } from '../../../src-shared/batch-run';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { BatchItemView, BatchView, CostSummary } from '../../../src-shared/batch-view';
import { customIdOf, expandedIds, rowOfTask } from '../../../src-shared/draft';
import { StudioError } from '../../../src-shared/studio-error';
import { BatchClient, type ListFilters } from '../gateway/batch-client';
import type { WireBatch } from '../gateway/batch-wire';
import type { EventHub } from '../host/event-hub';
import { existsSync } from 'node:fs';
import {
  batchFolderName,
  folderContents,
  recoverLibrary,
  removeWriteLeftovers,
} from '../library/batch-folder';
import { folderSignature } from '../library/batch-folder-record';
import type { ProfileService } from '../profiles/profile-service';
import type { ReferenceStore } from '../references/reference-store';
import type { SettingsService } from '../settings/settings-service';
import { BatchDownloader, type DownloadMode } from './batch-downloader';
import { BatchPoller, type Clock } from './batch-poller';
import { BatchStore } from './batch-store';
import { BatchSubmitter } from './batch-submitter';
import { DownloadGate } from './download-gate';
import { ProgressCoalescer } from './progress-coalescer';
import { SubmissionStore, type Submission } from './submission-store';
import { submissionView } from './send-guard';
import { isTerminal, toView, type TrackedBatch } from './tracked-batch';
import { logCaught } from '../log/studio-log';

export interface BatchEngineDeps {
  dataDir: string;
  profiles: ProfileService;
  settings: SettingsService;
  references: ReferenceStore;
  events: EventHub;
  clock?: Clock;
  random?: () => number;
  /** How much faster than real time a profile's gateway runs: the built-in sandbox's time scale. */
  speedFor?(profileId: string): number;
}

/**
 * How many download attempts (each ZIP try counts) a failed download is retried for by itself;
 * beyond it only the user's Download now tries again.
 */
export const DOWNLOAD_RETRY_CAP = 12;

/** Terminal states that end without the estimate being charged. */
const NOT_CHARGED = new Set(['cancelled', 'failed']);

function notFound(id: string): StudioError {
  return new StudioError({
    code: 'STUDIO_BATCH_NOT_FOUND',
    message: `The studio does not know batch ${id}.`,
  });
}

/**
 * The batch engine: records what the send guard sends (send-guard.ts), tracks every batch of every profile, polls the
 * ones in flight, downloads completed ones into the library, and carries out the user's actions.
 * Everything it learns leaves as `batch.updated` events.
 */
export class BatchEngine {
  readonly store: BatchStore;
  readonly submissions: SubmissionStore;
  readonly poller: BatchPoller;
  readonly downloader: BatchDownloader;
  readonly submitter: BatchSubmitter;
  readonly gate = new DownloadGate();
  private clients = new Map<string, BatchClient>();
  private retryTimers = new Map<string, NodeJS.Timeout>();
  /** Per library folder, the signature its missing count was last taken at: unchanged folders are not read. */
  private folderChecks = new Map<string, string>();
  private reconciling: Promise<void> = Promise.resolve();
  private unsubscribe?: () => void;
  /** A few progress events a second per batch reach the pages, never one per network chunk. */
  private progress: ProgressCoalescer;
  /** The cost figures last pushed per profile, so an update that moves no money pushes none. */
  private costsSent = new Map<string, string>();

  constructor(private deps: BatchEngineDeps) {
    this.progress = new ProgressCoalescer((p) => deps.events.emit('download.progress', p));
    this.store = new BatchStore(join(deps.dataDir, 'batches'));
    this.submissions = new SubmissionStore(join(deps.dataDir, 'submissions'), (s) => this.emitSubmission(s));
    this.poller = new BatchPoller({
      store: this.store,
      clientFor: (p) => this.clientFor(p),
      profiles: () => this.profileIds(),
      onChange: (before, after) => this.changed(before, after),
      clock: deps.clock,
      random: deps.random,
      speedFor: (p) => this.speedFor(p),
    });
    this.downloader = new BatchDownloader({
      store: this.store,
      submissions: this.submissions,
      references: deps.references,
      gate: this.gate,
      libraryRoot: () => deps.settings.get().libraryDir,
      clientFor: (p) => this.clientFor(p),
      accountOf: (p) => this.accountOf(p),
      speedFor: (p) => this.speedFor(p),
      profileName: (p) => deps.profiles.list().find((x) => x.id === p)?.name ?? p,
      onChange: (batch) => {
        // A failure leaves with its retry time, or with none when nothing will retry it.
        this.emitUpdated(batch.download.state === 'failed' ? this.retryDownloadLater(batch) : batch);
      },
      onProgress: (progress) => this.progress.push(progress),
    });
    this.submitter = new BatchSubmitter({
      submissions: this.submissions,
      references: deps.references,
      clientFor: (p) => this.clientFor(p),
      onCreated: (submission, batch) => this.recordCreated(submission, batch),
      speedFor: (p) => this.speedFor(p),
    });
  }

  private speedFor(profileId: string): number {
    try {
      return this.deps.speedFor?.(profileId) ?? 1;
    } catch (err) {
      logCaught('gateway speed', err);
      return 1;
    }
  }

  private profileIds(): string[] {
    return this.deps.profiles.list().map((p) => p.id);
  }

  /** One client per profile, made again when its address or key changes. */
  clientFor(profileId: string): BatchClient {
    const profile = this.deps.profiles.resolve(profileId);
    if (!profile.gatewayKey)
      throw new StudioError({ code: 'STUDIO_KEY_MISSING', message: 'This profile has no API key.' });
    const id = `${profileId}|${profile.baseUrl}|${createHash('sha256').update(profile.gatewayKey).digest('hex')}`;
    let client = this.clients.get(id);
    if (!client)
      this.clients.set(
        id,
        (client = new BatchClient({
          baseUrl: profile.baseUrl,
          key: profile.gatewayKey,
          knownKeys: () => this.deps.profiles.allKeys(),
        })),
      );
    return client;
  }

  /** Downloads are limited per gateway account, which may serve several profiles. */
  private accountOf(profileId: string): string {
    const profile = this.deps.profiles.resolve(profileId);
    return `${profile.baseUrl}|${createHash('sha256')
      .update(profile.gatewayKey ?? '')
      .digest('hex')}`;
  }

  /** Resumes after a start: half-done downloads are discarded and redone, unknown submissions resent. */
  async start(): Promise<void> {
    // What a kill left: a replaced folder goes back (or gives its marks), half-written files go.
    // A failure here never blocks a start.
    await recoverLibrary(this.deps.settings.get().libraryDir).catch((err: unknown) =>
      logCaught('staging cleanup', err),
    );
    for (const dir of ['batches', 'submissions', 'drafts']) {
      await removeWriteLeftovers(join(this.deps.dataDir, dir)).catch((err: unknown) =>
        logCaught('leftover cleanup', err),
      );
    }
    this.poller.start();
    // Library records against the library's folders first: a folder deleted while the studio was
    // closed (or a library folder changed in Settings) is no longer "in the library".
    await this.reconcileLibrary().catch((err: unknown) => logCaught('library folders of batches', err));
    for (const profileId of this.profileIds()) {
      for (const batch of this.store.list(profileId)) {
        this.maybeDownload(batch, true);
        if (batch.download.state === 'failed') this.resumeRetry(batch);
      }
    }
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
    // Every phase of a resent submission reaches the pages through the store's own events.
    void this.submitter.resumePending().catch((err: unknown) => logCaught('pending submissions', err));
    this.syncQuietly();
  }

  /** Brings in what the server knows, without bothering anyone when the gateway cannot be reached. */
  syncQuietly(): void {
    this.sync().catch((err: unknown) => logCaught('batch list sync', err));
  }

  stop(): void {
    this.progress.flush();
    this.poller.stop();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
  }

  private activeId(): string {
    return this.deps.profiles.active().id;
  }

  private find(id: string, profileId = this.activeId()): TrackedBatch {
    const batch = this.store.get(profileId, id);
    if (!batch) throw notFound(id);
    return batch;
  }

  /**
   * Every change to a batch leaves as `batch.updated`, and its profile's cost totals follow as
   * `costs.changed` when the change moved them: windows keep their totals from events and never
   * ask for them per update (a poll that only moves `lastPolledMs` sends no totals at all).
   */
  private emitUpdated(batch: TrackedBatch): void {
    this.deps.events.emit('batch.updated', toView(batch));
    const summary = this.costs(batch.profileId);
    const figures = JSON.stringify(summary);
    if (this.costsSent.get(batch.profileId) === figures) return;
    this.costsSent.set(batch.profileId, figures);
    this.deps.events.emit('costs.changed', summary);
  }

  private changed(before: TrackedBatch | undefined, after: TrackedBatch): void {
    this.emitUpdated(after);
    // However the studio learned a batch is completed (poll, sync, a late create answer), an
    // undownloaded one is fetched: maybeDownload starts nothing twice.
    this.maybeDownload(after, false);
    if (before && !isTerminal(before) && isTerminal(after))
      this.deps.events.emit('batch.finished', toView(after));
  }

  private maybeDownload(batch: TrackedBatch, resuming: boolean): void {
    if (batch.remote.status !== 'completed' || batch.hidden || batch.goneOnServer) return;
    const d = batch.download.state;
    const interrupted = resuming && (d === 'queued' || d === 'downloading' || d === 'verifying');
    const auto = d === 'none' && this.deps.settings.get().autoDownload;
    // Never a replacement by itself: a batch whose folder is in the library only gets what it lacks.
    if (interrupted || auto) void this.downloader.enqueue(batch.profileId, batch.id, 'missing');
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
    if (!this.willRetry(batch)) {
      if (batch.download.nextRetryAt === undefined) return batch;
      return this.store.update(batch.profileId, batch.id, (b) => ({
        ...b,
        download: { ...b.download, nextRetryAt: undefined },
      }))!;
    }
    const attempts = batch.download.attempts;
    const delay = Math.min(30 * 60_000, 5_000 * 2 ** Math.min(attempts, 9)) / this.speedFor(batch.profileId);
    const at = Math.round(Date.now() + delay);
    const next = this.store.update(batch.profileId, batch.id, (b) => ({
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
      if (next !== batch) this.emitUpdated(next);
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
        const current = this.store.get(batch.profileId, batch.id);
        // Only the retry that was announced: a Download now since then started its own.
        if (current?.download.state === 'failed' && current.download.nextRetryAt === at && !current.hidden)
          void this.downloader.enqueue(batch.profileId, batch.id, 'missing');
      },
      Math.max(0, at - Date.now()),
    );
    timer.unref();
    this.retryTimers.set(key, timer);
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
    const root = this.deps.settings.get().libraryDir;
    for (const profileId of this.profileIds()) {
      for (const { id } of this.store.list(profileId)) {
        // Read again at its turn: an earlier check of this pass (or the detail's) may have moved it.
        const batch = this.store.get(profileId, id);
        if (!batch || this.downloader.isRunning(profileId, id)) continue;
        const next = await this.checkFolder(root, batch);
        if (next !== batch) this.changed(batch, next);
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
    return this.store.put({ ...batch, download: { ...batch.download, ...download } });
  }

  private recordCreated(submission: Submission, remote: WireBatch): void {
    const existing = this.store.get(submission.profileId, remote.id);
    const parent = submission.parentBatchId
      ? this.store.get(submission.profileId, submission.parentBatchId)
      : undefined;
    const parentId = remote.parent_batch_id ?? submission.parentBatchId ?? null;
    const batch = this.store.put({
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
    this.poller.schedule(batch);
    this.changed(existing, batch);
  }

  private emitSubmission(s: Submission): void {
    this.deps.events.emit('submission.updated', submissionView(s));
  }

  // ---- what the StudioApi calls ----

  /**
   * The active profile's batches, newest first. A batch removed from the list is left out, except
   * where money is counted: removing a batch does not give back what it cost.
   */
  list({
    includeRemoved = false,
    profileId = this.activeId(),
  }: { includeRemoved?: boolean; profileId?: string } = {}): BatchView[] {
    return this.store
      .list(profileId)
      .filter((b) => includeRemoved || !b.hidden)
      .sort((a, b) => b.remote.created_at - a.remote.created_at || (a.id < b.id ? 1 : -1))
      .map(toView);
  }

  /** One batch, its library folder looked at first: the detail says what its folder lacks now. */
  async get(id: string): Promise<BatchView> {
    const batch = this.find(id);
    if (!batch.download.folder || this.downloader.isRunning(batch.profileId, id)) return toView(batch);
    const next = await this.checkFolder(this.deps.settings.get().libraryDir, batch, true).catch(
      (err: unknown) => {
        logCaught('library folder of a batch', err);
        return batch;
      },
    );
    if (next !== batch) this.changed(batch, next);
    return toView(next);
  }

  /** Brings in the server's list for the profile: batches created elsewhere appear, without prompts. */
  async sync(filters: ListFilters = {}): Promise<{ added: number; updated: number }> {
    const profileId = this.activeId();
    const remote = await this.clientFor(profileId).listAll(filters);
    let added = 0;
    let updated = 0;
    for (const r of remote) {
      const existing = this.store.get(profileId, r.id);
      if (existing) {
        if (existing.remote.status === r.status && existing.remote.success_count === r.success_count)
          continue;
        const next = this.store.put({ ...existing, remote: r });
        this.poller.schedule(next);
        this.changed(existing, next);
        updated++;
        continue;
      }
      const parentId = r.parent_batch_id ?? null;
      const parent = parentId ? this.store.get(profileId, parentId) : undefined;
      const batch = this.store.put({
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
      this.poller.schedule(batch);
      // Through changed(): a batch found already completed is downloaded like any other.
      this.changed(undefined, batch);
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
    const client = this.clientFor(profileId);
    let gone = 0;
    for (const batch of this.store.list(profileId)) {
      if (batch.goneOnServer || listed.has(batch.id)) continue;
      try {
        await client.get(batch.id);
      } catch (err) {
        const error = StudioError.from(err);
        if (error.code !== 'BATCH_IMAGE_NOT_FOUND') continue;
        const after = this.store.put({ ...batch, goneOnServer: true, pollError: error.toView() });
        this.changed(batch, after);
        gone++;
      }
    }
    return gone;
  }

  async items(id: string): Promise<BatchItemView[]> {
    const batch = this.find(id);
    const draft = batch.submissionId ? this.submissions.get(batch.submissionId)?.draft : undefined;
    const files = await this.localFiles(batch);
    let remote;
    try {
      remote = await this.clientFor(batch.profileId).items(id, 'all');
    } catch (err) {
      // Offline or gone: the library's own record still tells what each item was.
      if (files.size === 0 && !draft) throw err;
      remote = undefined;
    }
    // Without the server, the items are what the library holds and, beyond it, the saved draft's.
    const known = new Set(files.keys());
    const fromDraft = draft
      ? draft.items.flatMap((item, index) => expandedIds(customIdOf(item, index), item.outputCount))
      : [];
    const entries =
      remote ??
      [...files.keys(), ...fromDraft.filter((id) => !known.has(id))].map((customId) => ({
        custom_id: customId,
        status: known.has(customId) ? 'success' : 'unknown',
        prompt_preview: '',
        error: null,
      }));
    // A cancelled batch's unfinished items never run: the gateway keeps calling them pending.
    const unfinished: BatchItemView['status'] = batch.remote.status === 'cancelled' ? 'cancelled' : 'pending';
    return entries.map((item) => {
      const row = draft ? rowOfTask(draft, item.custom_id) : undefined;
      const local = files.get(item.custom_id);
      return {
        customId: item.custom_id,
        status: item.status === 'success' ? 'success' : item.status === 'failed' ? 'failed' : unfinished,
        prompt: row && draft ? draft.items[row.index]!.prompt : (item.prompt_preview ?? ''),
        rowIndex: row?.index ?? null,
        error: item.error ? { code: item.error.code, message: item.error.message } : null,
        file: local?.file ?? null,
        mime: local?.mime ?? null,
      };
    });
  }

  private async localFiles(batch: TrackedBatch): Promise<Map<string, { file: string; mime: string }>> {
    const folder = batch.download.folder;
    if (!folder) return new Map();
    try {
      const record = JSON.parse(
        await readFile(join(this.deps.settings.get().libraryDir, folder, 'batch.json'), 'utf8'),
      ) as {
        images: { customId: string; file: string; mime: string; imageIndex: number }[];
      };
      return new Map(
        record.images
          .filter((i) => i.imageIndex === 0)
          .map((i) => [i.customId, { file: `${folder}/${i.file}`, mime: i.mime }]),
      );
    } catch (err) {
      logCaught('library record of a batch', err);
      return new Map();
    }
  }

  async cancel(id: string): Promise<BatchView> {
    const before = this.find(id);
    const remote = await this.clientFor(before.profileId).cancel(id);
    const after = this.store.put({
      ...before,
      remote,
      cancelRequested: !isTerminal({ remote, goneOnServer: false }) || remote.status === 'cancelled',
    });
    // Already upstream, a cancel takes effect later: keep polling, soon, until a terminal state.
    this.poller.schedule(after, true);
    this.changed(before, after);
    return toView(after);
  }

  /**
   * Download now. `replace` downloads the whole batch and replaces its library folder (marks kept);
   * `missing` fetches only the images its folder lacks, or the whole batch when it has no folder.
   */
  async download(id: string, mode: DownloadMode = 'replace'): Promise<BatchView> {
    const batch = this.find(id);
    if (batch.remote.status !== 'completed') {
      throw new StudioError({
        code: 'BATCH_IMAGE_NOT_READY',
        message: `The batch is ${batch.remote.status}; results come once it is completed.`,
      });
    }
    void this.downloader.enqueue(batch.profileId, id, mode);
    return toView(this.find(id));
  }

  async deleteOutputs(id: string): Promise<BatchView> {
    const before = this.find(id);
    const remote =
      (await this.clientFor(before.profileId).deleteOutputs(id)) ??
      (await this.clientFor(before.profileId).get(id));
    const after = this.store.put({ ...before, remote });
    this.changed(before, after);
    return toView(after);
  }

  /** Removes the batch from the gateway's list (terminal batches only); local files stay unless asked. */
  async deleteRecord(id: string, deleteLocalFiles: boolean): Promise<void> {
    const batch = this.find(id);
    if (!isTerminal(batch)) {
      throw new StudioError({
        code: 'BATCH_IMAGE_RECORD_DELETE_NOT_READY',
        message: 'Only a finished batch can be removed.',
      });
    }
    if (!batch.goneOnServer) {
      try {
        await this.clientFor(batch.profileId).deleteRecord(id);
      } catch (err) {
        if (StudioError.from(err).code !== 'BATCH_IMAGE_NOT_FOUND') throw err;
      }
    }
    if (deleteLocalFiles && batch.download.folder) {
      await rm(join(this.deps.settings.get().libraryDir, batch.download.folder), {
        recursive: true,
        force: true,
      });
    }
    const after = this.store.put({
      ...batch,
      hidden: true,
      goneOnServer: true,
      download: deleteLocalFiles ? { state: 'none', attempts: 0 } : batch.download,
    });
    this.emitUpdated(after);
  }

  /** What a profile's batches cost: answered to `batches.costs`, and pushed as `costs.changed`. */
  costs(profileId = this.activeId()): CostSummary {
    const days = new Map<string, CostSummary['days'][number]>();
    for (const b of this.store.list(profileId)) {
      if (b.hidden) continue;
      const day = new Date(b.remote.created_at * 1000).toISOString().slice(0, 10);
      const entry = days.get(day) ?? { day, batches: 0, estimated: 0, held: 0, actual: 0 };
      entry.batches += 1;
      // Only money that is or will be spent: a cancelled or failed batch's estimate was never
      // charged, and its hold went back to the balance.
      if (!NOT_CHARGED.has(b.remote.status)) entry.estimated += b.remote.estimated_cost;
      // A hold is outstanding until the batch settles.
      if (b.remote.actual_cost === null && !isTerminal(b)) entry.held += b.remote.hold_amount;
      entry.actual += b.remote.actual_cost ?? 0;
      days.set(day, entry);
    }
    const list = [...days.values()].sort((a, b) => (a.day < b.day ? 1 : -1));
    const round = (n: number) => Math.round(n * 1e6) / 1e6;
    const totals = list.reduce(
      (t, d) => ({
        batches: t.batches + d.batches,
        estimated: t.estimated + d.estimated,
        held: t.held + d.held,
        actual: t.actual + d.actual,
      }),
      { batches: 0, estimated: 0, held: 0, actual: 0 },
    );
    return {
      profileId,
      totals: {
        batches: totals.batches,
        estimated: round(totals.estimated),
        held: round(totals.held),
        actual: round(totals.actual),
      },
      days: list.map((d) => ({
        ...d,
        estimated: round(d.estimated),
        held: round(d.held),
        actual: round(d.actual),
      })),
    };
  }

  private previews = new Map<string, Buffer>();

  /**
   * A small preview of one item: from the library once downloaded, otherwise from the gateway's
   * content endpoint, waiting its turn at the account's one-download gate ahead of bulk downloads.
   */
  async preview(id: string, customId: string): Promise<{ webp: Buffer; source: 'library' | 'gateway' }> {
    const batch = this.find(id);
    const local = (await this.localFiles(batch)).get(customId);
    const cacheKey = `${batch.profileId}/${id}/${customId}/${local ? 'l' : 'g'}`;
    const cached = this.previews.get(cacheKey);
    if (cached) return { webp: cached, source: local ? 'library' : 'gateway' };
    const { data } = await this.itemImage(id, customId);
    const thumb = await sharp(data).resize(320, 320, { fit: 'inside' }).webp({ quality: 80 }).toBuffer();
    if (this.previews.size > 400) this.previews.delete(this.previews.keys().next().value!);
    this.previews.set(cacheKey, thumb);
    return { webp: thumb, source: local ? 'library' : 'gateway' };
  }

  /**
   * An item's image itself: from the library once downloaded (with its library id), else from the
   * gateway, one item at a time and behind the account's download slot.
   */
  async itemImage(
    id: string,
    customId: string,
  ): Promise<{ data: Buffer; mime?: string; libraryId?: string }> {
    const batch = this.find(id);
    const local = (await this.localFiles(batch)).get(customId);
    if (local) {
      const data = await readFile(join(this.deps.settings.get().libraryDir, local.file));
      return { data, mime: local.mime, libraryId: local.file };
    }
    if (batch.remote.status !== 'completed') {
      throw new StudioError({
        code: 'BATCH_IMAGE_NOT_READY',
        message: 'Previews come once the batch is completed.',
      });
    }
    const client = this.clientFor(batch.profileId);
    const dir = await mkdtemp(join(tmpdir(), 'studio-preview-'));
    try {
      const file = join(dir, 'image');
      await this.gate.run(
        this.accountOf(batch.profileId),
        () => client.downloadTo(client.contentPath(id, customId), file, () => undefined),
        {
          priority: 1,
          speed: this.speedFor(batch.profileId),
        },
      );
      return { data: await readFile(file) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The batch's folder in the library, once downloaded. */
  folderOf(id: string): string | undefined {
    const folder = this.find(id).download.folder;
    return folder ? join(this.deps.settings.get().libraryDir, folder) : undefined;
  }

  async models(): Promise<string[]> {
    return this.clientFor(this.activeId()).models();
  }
}
