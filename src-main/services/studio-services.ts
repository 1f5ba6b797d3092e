import { join } from 'node:path';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/gateway';
import type { AppInfo, ContextMenuRequest } from '../../src-shared/studio-api';
import type { StudioErrorView } from '../../src-shared/studio-error';
import { Batches } from './batches/batches';
import type { Clock } from './batches/batch-poller';
import { SendGuard } from './batches/send-guard';
import { SpendingService } from './batches/spending';
import { ConnectionMonitor } from './connection/connection-monitor';
import { startFirstServices, type FirstServices } from './first-services';
import { batchHandlers } from './api-methods/batch-methods';
import { draftHandlers } from './api-methods/draft-methods';
import { kbHandlers } from './api-methods/kb-methods';
import { libraryHandlers } from './api-methods/library-methods';
import { collectionHandlers } from './api-methods/board-methods';
import { reuseHandlers } from './api-methods/reuse-methods';
import { ImageReuse } from './reuse/image-reuse';
import { realtimeHandlers } from './api-methods/realtime-methods';
import { settingsHandlers } from './api-methods/settings-methods';
import type { EventHub } from './dispatch/event-hub';
import { createDispatcher, type Dispatch, type StudioHandlers } from './dispatch/studio-dispatcher';
import { KbHistory } from './kb/kb-history';
import { KbPushes } from './kb/kb-pushes';
import { KbSearches } from './kb/kb-searches';
import { kbClientOf } from './kb/kb-targets';
import { ExportDownloads } from './library/export/export-downloads';
import { keepCatalogCurrent } from './library/changes/library-events';
import { LibraryCatalog } from './library/catalog/library-catalog';
import { LibraryHomes } from './library/catalog/library-home';
import { ImageHashing } from './library/images/image-hashing';
import { LibraryWatch } from './library/changes/library-watch';
import { LibraryChanges } from './library/changes/library-changes';
import { PersonPresence, studioIdOf } from './people/person-presence';
import { Collections } from './library/folders/boards';
import { ThumbnailService } from './library/images/thumbnails';
import { ImageRoutes } from './library/images/image-routes';
import { logCaught, logInfo } from './log/studio-log';
import type { ProfileService } from './profiles/profile-service';
import type { RealtimeClient } from './realtime/realtime-client';
import { RealtimeJobs } from './realtime/realtime-jobs';
import { ReferenceStore } from './references/reference-store';
import { redact, type SecretStore } from './secrets/secret-store';
import type { KeyValueStore } from './settings/key-value-store';
import type { SettingsService } from './settings/settings-service';
import { updateHandlers } from './api-methods/update-methods';
import type { UpdateAvailability } from '../../src-shared/updates';
import { UpdateService } from './updates/update-service';
import type { UpdaterEngine } from './updates/updater-engine';
import { workInProgress } from './updates/work-in-progress';

export interface StudioServicesOptions {
  host: AppInfo['host'];
  version: string;
  dataDir: string;
  store: KeyValueStore;
  secrets: SecretStore;
  /** Gateway seconds per real second for the built-in sandbox; batches take minutes at 1. */
  sandboxTimeScale?: number;
  /** Desktop hosts bring native dialogs and the system browser; browser mode has neither. */
  pickFolder?: (title?: string) => Promise<string | null>;
  /** Desktop: the native save dialog; null when dismissed. Browser mode downloads instead. */
  pickSavePath?: (defaultName: string) => Promise<string | null>;
  openExternal?: (url: string) => Promise<void>;
  /** Desktop: a native right-click menu; the id chosen, or null. */
  showContextMenu?: (menu: ContextMenuRequest) => Promise<string | null>;
  /** Desktop: shows a folder in the file manager. */
  openPath?: (path: string) => Promise<void>;
  /** Test and benchmark settings of the built-in sandbox (faults, item failure rate). */
  sandbox?: Pick<SandboxOptions, 'config' | 'faults'>;
  /** Tests wait less between retries of knowledge-base chunks. */
  kbSleep?: (ms: number) => Promise<void>;
  /** Test settings of the realtime client (shorter timeouts, no waiting between retries). */
  realtimeClient?: ConstructorParameters<typeof RealtimeClient>[1];
  /** A simulated clock for the poller, in benchmarks. */
  clock?: Clock;
  /** How much faster than real time gateways other than the built-in sandbox run (tests point at fast sandboxes). */
  gatewaySpeed?: number;
  /** Tests: how long a download may send nothing before it counts as cut (a minute by default). */
  downloadStallMs?: number;
  /**
   * Updates of the installed studio: the desktop brings electron-updater (or says why this copy
   * cannot update itself); browser mode has none, or a demo for tests.
   */
  updates?: { availability: UpdateAvailability; engine?: UpdaterEngine };
  /**
   * This install's stable id, naming its staging area, download leases and realtime folders in a
   * library shared with other studios. Without one, an id derived from the data folder's path.
   */
  studioId?: string;
}

export interface StudioServices {
  dispatch: Dispatch;
  events: EventHub;
  /** Browser mode: ZIP exports waiting for their one download from the web host. */
  downloads: ExportDownloads;
  /** Images by URL: the desktop's studio-image: protocol and browser mode's /images routes. */
  images: ImageRoutes;
  settings: SettingsService;
  profiles: ProfileService;
  batches: Batches;
  /** The one gate of every paid batch. */
  sends: SendGuard;
  updates: UpdateService;
  sandbox: Sandbox;
  /** This studio's id on a shared library: its staging, journal and presence are named by it. */
  studioId: string;
  /** Writes this studio's presence and looks for a copy of its person now (it does so every minute). */
  presence: Pick<PersonPresence, 'tick'>;
  close(): Promise<void>;
}

/**
 * The composition root: builds every service of the studio and wires each feature's handlers into
 * the one table both hosts serve. Logic lives in the services and handler modules, not here.
 */
export async function createStudioServices(
  options: StudioServicesOptions,
  /** Started already (both hosts do, to answer the first screen early); here otherwise. */
  first: FirstServices = startFirstServices(options),
): Promise<StudioServices> {
  const { events, settings, profiles, drafts, unlock } = first;
  let sandbox: Sandbox;
  try {
    sandbox = await createSandbox({
      port: 0,
      dataDir: join(options.dataDir, 'sandbox'),
      timeScale: options.sandboxTimeScale ?? 20,
      ...options.sandbox,
    });
  } catch (err) {
    unlock();
    throw err;
  }
  first.setSandboxUrl(sandbox.url);
  logInfo(`Batch Image Studio ${options.version} (${options.host}) started on ${options.dataDir}`);
  const downloads = new ExportDownloads(join(options.dataDir, 'exports', 'downloads'));
  const connection = new ConnectionMonitor(profiles, events);
  const references = new ReferenceStore(join(options.dataDir, 'references'));
  const libraryDir = () => settings.get().libraryDir;
  const person = () => ({ id: settings.get().personId, name: settings.get().personName });
  // This studio's index of each library (catalog, hashes), in its data folder: never in the library.
  const homes = new LibraryHomes(options.dataDir);
  const library = new LibraryCatalog(
    libraryDir,
    (change) => events.emit('library.changed', change),
    person,
    (root) => homes.of(root),
  );
  // This studio among the others on a shared library: its own id (by machine and data folder),
  // and its person told apart from a copy of its data folder still in use elsewhere.
  const studioId = options.studioId ?? studioIdOf(options.dataDir);
  // This studio's change journal in the library: other studios on it read the folders it names.
  const libraryChanges = new LibraryChanges(libraryDir, studioId);
  const presence = new PersonPresence({
    root: libraryDir,
    studioId,
    person,
    since: () => settings.personSince(),
    onCopied: ({ host }) => {
      settings.newPersonId({ code: 'PERSON_ID_COPIED', host });
      logInfo(`another studio on ${host} holds this person id: this one takes a new id`);
      void library.sync();
    },
  });
  const libraryWatch = new LibraryWatch(libraryDir, library, studioId);
  const thumbnails = new ThumbnailService(join(options.dataDir, 'thumbnails'));
  const kbClientFor = (profileId: string) =>
    kbClientOf(profiles.resolve(profileId), () => profiles.allKeys());
  const noteKb = (profileId: string, error?: StudioErrorView) => connection.noteKb(profileId, error);
  const kbPushes = new KbPushes(
    join(options.dataDir, 'kb', 'pushes'),
    events,
    kbClientFor,
    options.kbSleep,
    noteKb,
  );
  const kbSearches = new KbSearches(
    kbClientFor,
    new KbHistory(join(options.dataDir, 'kb', 'searches.json')),
    noteKb,
  );
  const realtime = new RealtimeJobs(
    join(options.dataDir, 'realtime'),
    profiles,
    events,
    {
      root: libraryDir,
      saved: (folder) => {
        libraryChanges.noteFolder(folder);
        return library.sync();
      },
      image: (id) => library.detail(id),
      studioId,
    },
    options.realtimeClient,
  );
  // Perceptual hashes for the near-duplicate stacks: after each sync that brought folders in.
  const hashing = new ImageHashing({
    root: libraryDir,
    hashFileOf: (root, folder) => homes.of(root).hashFileOf(folder),
    unhashed: (after, limit) => library.unhashed(after, limit),
    resync: (folders) => library.hashesChanged(folders),
  });
  events.subscribe((event, payload) => {
    if (event === 'library.changed' && (payload as { reason?: string }).reason === 'folders')
      void hashing.kick();
  });
  keepCatalogCurrent(events, library, libraryWatch, libraryChanges);
  const sandboxSpeed = options.sandboxTimeScale ?? 20;
  const batches = new Batches({
    dataDir: options.dataDir,
    studioId,
    profiles,
    settings,
    references,
    events,
    clock: options.clock,
    speedFor: (profileId) =>
      profiles.resolve(profileId).kind === 'sandbox' ? sandboxSpeed : (options.gatewaySpeed ?? 1),
    stallMs: options.downloadStallMs,
  });
  const sends = new SendGuard({
    submissions: batches.submissions,
    submitter: batches.submitter,
    store: batches.store,
    activeProfileId: () => profiles.active().id,
    clientFor: (profileId) => batches.clients.clientFor(profileId),
    // Removed batches count: removing a batch from the list does not give back what it cost.
    budget: (profileId, query, pending) =>
      new SpendingService({
        profileId: () => profileId,
        batches: () => batches.records.list({ includeRemoved: true, profileId }),
        monthlyBudget: () => profiles.resolve(profileId).monthlyBudget ?? null,
      }).check(query, pending),
  });

  const updates = new UpdateService({
    currentVersion: options.version,
    availability: options.updates?.availability ?? {
      kind: options.host === 'browser' ? 'browser' : 'no-feed',
    },
    engine: options.updates?.engine,
    store: options.store,
    // Every profile's work: a restart cuts short another profile's download just as well.
    work: () =>
      workInProgress({
        batches: () =>
          profiles.list().flatMap((p) => batches.records.list({ includeRemoved: true, profileId: p.id })),
        submissions: () => batches.submissions.list(),
        kbUploadsRunning: () => kbPushes.runningCount(),
      }),
    publish: (status) => events.emit('updates.changed', status),
  });
  events.subscribe((event) => {
    if (event === 'batch.updated' || event === 'submission.updated' || event === 'kb.pushProgress')
      updates.workChanged();
  });

  const reuse = new ImageReuse({
    library,
    references,
    realtimeResult: (jobId) => ({
      file: realtime.imageFile(jobId, 'result', 0).file,
      savedId: realtime.list().find((j) => j.id === jobId)?.savedId,
    }),
    batchItem: (batchId, customId) => batches.media.itemImage(batchId, customId),
  });
  const handlers: StudioHandlers = {
    ...settingsHandlers({
      info: () => ({
        version: options.version,
        host: options.host,
        dataDir: options.dataDir,
        secretStorage: options.secrets.kind,
        sandboxUrl: sandbox.url,
      }),
      settings,
      profiles,
      connection,
      batches,
      pickFolder: options.pickFolder,
      openExternal: options.openExternal,
      showContextMenu: options.showContextMenu,
    }),
    ...batchHandlers({ batches, sends, references, profiles, openPath: options.openPath }),
    ...kbHandlers({ profiles, pushes: kbPushes, searches: kbSearches, library }),
    ...realtimeHandlers(realtime, profiles),
    ...libraryHandlers({
      library,
      events,
      downloads,
      pickSavePath: options.pickSavePath,
      openPath: options.openPath,
      language: () => settings.get().language,
      personName: () => settings.get().personName,
    }),
    ...collectionHandlers(new Collections(libraryDir, person), library, () => libraryChanges.noteBoards()),
    ...reuseHandlers(reuse),
    ...draftHandlers(drafts, {
      library,
      reference: (id) => reuse.fromLibrary(id),
      language: () => settings.get().language,
    }),
    ...updateHandlers(updates),
  };

  const dispatch = createDispatcher(handlers, (text) => redact(text, profiles.allKeys()));
  const images = new ImageRoutes({
    thumbnails,
    library: { root: () => settings.get().libraryDir, file: (id) => library.detail(id) },
    realtime,
    batchPreview: (batchId, customId) => batches.media.preview(batchId, customId),
    reference: { fileOf: (id) => references.fileOf(id), root: join(options.dataDir, 'references') },
  });
  await batches.start();
  updates.start();
  presence.start();
  return {
    dispatch,
    events,
    downloads,
    images,
    settings,
    profiles,
    batches,
    sends,
    updates,
    sandbox,
    studioId,
    presence,
    close: async () => {
      updates.stop();
      presence.stop();
      batches.stop();
      libraryWatch.stop();
      await libraryChanges.flush().catch((err: unknown) => logCaught('library change journal write', err));
      hashing.stop();
      library.close();
      await sandbox.close();
      unlock();
    },
  };
}
