import { join } from 'node:path';
import type { BatchView } from '../../../src-shared/batch-view';
import type { EventHub } from '../dispatch/event-hub';
import { removeWriteLeftovers } from '../library/folders/batch-folder';
import { StudioStaging } from '../library/sharing/studio-staging';
import { logCaught } from '../log/studio-log';
import type { ProfileService } from '../profiles/profile-service';
import type { ReferenceStore } from '../references/reference-store';
import type { SettingsService } from '../settings/settings-service';
import { BatchActions } from './batch-actions';
import { BatchClients } from './batch-clients';
import { BatchCosts } from './batch-costs';
import { BatchDownloader } from './batch-downloader';
import { BatchMedia } from './batch-media';
import { BatchPoller, type Clock } from './batch-poller';
import { BatchRecords } from './batch-records';
import { BatchStore } from './batch-store';
import { BatchSubmitter } from './batch-submitter';
import { BatchSync } from './batch-sync';
import { BatchUpdates } from './batch-updates';
import { DownloadGate } from './download-gate';
import { DownloadScheduler } from './download-scheduler';
import { LibraryReconcile } from './library-reconcile';
import { ProgressCoalescer } from './progress-coalescer';
import { submissionView } from './send-guard';
import { SubmissionStore } from './submission-store';

export interface BatchesDeps {
  dataDir: string;
  /** This install's id: its staging area and download leases in a library shared with other studios. */
  studioId: string;
  profiles: ProfileService;
  settings: SettingsService;
  references: ReferenceStore;
  events: EventHub;
  clock?: Clock;
  random?: () => number;
  /** How much faster than real time a profile's gateway runs: the built-in sandbox's time scale. */
  speedFor?(profileId: string): number;
  /** How long a download may send nothing before it counts as cut. */
  stallMs?: number;
}

/**
 * The batches of every profile, their pieces wired together: what the send guard sends
 * (send-guard.ts) is recorded, batches in flight are polled, completed ones downloaded into the
 * library and kept true to its folders, and the user's actions carried out. The pieces answer the
 * StudioApi themselves (handlers/batches.ts); here they are only built, started and stopped.
 */
export class Batches {
  readonly store: BatchStore;
  readonly submissions: SubmissionStore;
  readonly clients: BatchClients;
  readonly records: BatchRecords;
  readonly costs: BatchCosts;
  readonly poller: BatchPoller;
  readonly downloader: BatchDownloader;
  readonly downloads: DownloadScheduler;
  readonly sync: BatchSync;
  readonly submitter: BatchSubmitter;
  readonly library: LibraryReconcile;
  readonly actions: BatchActions;
  readonly media: BatchMedia;
  private staging: StudioStaging;
  /** A few progress events a second per batch reach the pages, never one per network chunk. */
  private progress = new ProgressCoalescer((p) => this.deps.events.emit('download.progress', p));

  constructor(private deps: BatchesDeps) {
    const { events, profiles, settings, references } = deps;
    const libraryRoot = () => settings.get().libraryDir;
    const gate = new DownloadGate();
    const staging = (this.staging = new StudioStaging(libraryRoot, deps.studioId));
    const store = (this.store = new BatchStore(join(deps.dataDir, 'batches')));
    const submissions = (this.submissions = new SubmissionStore(join(deps.dataDir, 'submissions'), (s) =>
      events.emit('submission.updated', submissionView(s)),
    ));
    const clients = (this.clients = new BatchClients({
      profiles,
      speedFor: deps.speedFor,
      stallMs: deps.stallMs,
    }));
    const clientFor = (profileId: string) => clients.clientFor(profileId);
    const speedFor = (profileId: string) => clients.speedFor(profileId);
    const records = (this.records = new BatchRecords(store, profiles));
    this.costs = new BatchCosts(records, events);
    const updates = new BatchUpdates(events, this.costs);
    const poller = (this.poller = new BatchPoller({
      store,
      clientFor,
      profiles: () => records.profileIds(),
      onChange: (before, after) => updates.changed(before, after),
      clock: deps.clock,
      random: deps.random,
      speedFor,
    }));
    const downloader = (this.downloader = new BatchDownloader({
      store,
      submissions,
      references,
      gate,
      staging,
      studioId: deps.studioId,
      libraryRoot,
      clientFor,
      accountOf: (profileId) => clients.accountOf(profileId),
      speedFor,
      profileName: (p) => profiles.list().find((x) => x.id === p)?.name ?? p,
      // Through the scheduler, which sets a failed download's retry before the change is announced.
      onChange: (batch) => this.downloads.downloadChanged(batch),
      onProgress: (progress) => this.progress.push(progress),
    }));
    this.downloads = new DownloadScheduler({ records, downloader, updates, settings, speedFor });
    const sync = (this.sync = new BatchSync({ records, clients, poller, updates }));
    this.submitter = new BatchSubmitter({
      submissions,
      references,
      clientFor,
      onCreated: (submission, batch) => sync.recordCreated(submission, batch),
      speedFor,
    });
    this.library = new LibraryReconcile({ records, downloader, updates, events, libraryRoot });
    this.actions = new BatchActions({ records, clients, poller, downloader, updates, libraryRoot });
    this.media = new BatchMedia({ records, submissions, clients, gate, libraryRoot });
  }

  /** Resumes after a start: half-done downloads are discarded and redone, unknown submissions resent. */
  async start(): Promise<void> {
    // What a kill left: a replaced folder goes back (or gives its marks), this studio's own
    // staging and half-written files go. A failure here never blocks a start.
    await this.staging.recover().catch((err: unknown) => logCaught('staging cleanup', err));
    for (const dir of ['batches', 'submissions', 'drafts']) {
      await removeWriteLeftovers(join(this.deps.dataDir, dir)).catch((err: unknown) =>
        logCaught('leftover cleanup', err),
      );
    }
    this.poller.start();
    // Library records against the library's folders first: a folder deleted while the studio was
    // closed (or a library folder changed in Settings) is no longer "in the library".
    await this.library
      .reconcileLibrary()
      .catch((err: unknown) => logCaught('library folders of batches', err));
    this.downloads.resume();
    this.library.watch();
    // Every phase of a resent submission reaches the pages through the store's own events.
    void this.submitter.resumePending().catch((err: unknown) => logCaught('pending submissions', err));
    this.sync.syncQuietly();
  }

  stop(): void {
    this.progress.flush();
    this.poller.stop();
    this.library.stop();
    this.downloads.stop();
    this.downloader.stop();
    this.staging.stop();
  }

  /** The active profile's batches, for the desktop's taskbar progress (and the test runners). */
  list(options?: Parameters<BatchRecords['list']>[0]): BatchView[] {
    return this.records.list(options);
  }
}
