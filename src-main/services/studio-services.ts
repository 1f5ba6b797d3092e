import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/gateway';
import type { AppInfo } from '../../src-shared/studio-api';
import { StudioError } from '../../src-shared/studio-error';
import { BatchEngine } from './batches/batch-engine';
import type { Clock } from './batches/batch-poller';
import { ConnectionMonitor, checkProfile } from './connection/connection-monitor';
import { lockDataFolder } from './data-folder-lock';
import { isAllowedExternalUrl } from './external-links';
import { EventHub } from './host/event-hub';
import { createDispatcher, type Dispatch, type StudioHandlers } from './host/studio-dispatcher';
import { ProfileService } from './profiles/profile-service';
import { ReferenceStore } from './references/reference-store';
import { DraftStore } from './drafts/draft-store';
import { LibraryIndex } from './library/library-index';
import { exportToFolder, exportZip } from './library/library-export';
import { ExportDownloads } from './library/export-downloads';
import { initStudioLog, logCaught, logInfo } from './log/studio-log';
import { ThumbnailService } from './library/thumbnails';
import { RealtimeJobs } from './realtime/realtime-jobs';
import { KbClient } from './kb/kb-client';
import { KbPushes } from './kb/kb-pushes';
import { KbHistory } from './kb/kb-history';
import { KB_CSV_TEMPLATE, checkRows, readKbCsv } from './kb/kb-rows';
import type { KbSearchResult } from '../../src-shared/kb-view';
import type { RealtimeClient } from './realtime/realtime-client';
import { readFile } from 'node:fs/promises';
import { draftToCsv, readTable } from './drafts/table-import';
import { GATEWAY_LIMITS } from '../../src-shared/draft-rules';
import { redact, type SecretStore } from './secrets/secret-store';
import type { KeyValueStore } from './settings/key-value-store';
import { SettingsService } from './settings/settings-service';

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
}

export interface StudioServices {
  dispatch: Dispatch;
  events: EventHub;
  /** Browser mode: ZIP exports waiting for their one download from the web host. */
  downloads: ExportDownloads;
  settings: SettingsService;
  profiles: ProfileService;
  batches: BatchEngine;
  sandbox: Sandbox;
  close(): Promise<void>;
}

/** Builds every service of the studio and the handler table both hosts serve. */
export async function createStudioServices(options: StudioServicesOptions): Promise<StudioServices> {
  mkdirSync(options.dataDir, { recursive: true });
  const unlock = lockDataFolder(options.dataDir);
  const events = new EventHub();
  const sandbox = await createSandbox({
    port: 0,
    dataDir: join(options.dataDir, 'sandbox'),
    timeScale: options.sandboxTimeScale ?? 20,
    ...options.sandbox,
  });
  const settings = new SettingsService(options.store, options.dataDir, events);
  const profiles = new ProfileService(options.store, options.secrets, settings, events, () => sandbox.url);
  initStudioLog(join(options.dataDir, 'logs'), (text) => redact(text, profiles.allKeys()));
  logInfo(`Batch Image Studio ${options.version} (${options.host}) started on ${options.dataDir}`);
  const downloads = new ExportDownloads(join(options.dataDir, 'exports', 'downloads'));
  const connection = new ConnectionMonitor(profiles, events);
  const references = new ReferenceStore(join(options.dataDir, 'references'));
  const drafts = new DraftStore(join(options.dataDir, 'drafts'));
  const library = new LibraryIndex(() => settings.get().libraryDir);
  const thumbnails = new ThumbnailService(join(options.dataDir, 'thumbnails'));
  const kbClientFor = (profileId: string) => {
    const profile = profiles.resolve(profileId);
    if (!profile.kbKey)
      throw new StudioError({
        code: 'STUDIO_KEY_MISSING',
        message: 'This profile has no knowledge-base key.',
      });
    return new KbClient({
      baseUrl: profile.kbBaseUrl,
      key: profile.kbKey,
      knownKeys: () => profiles.allKeys(),
    });
  };
  const kbPushes = new KbPushes(
    join(options.dataDir, 'kb', 'pushes'),
    events,
    kbClientFor,
    options.kbSleep,
    (profileId, error) => connection.noteKb(profileId, error),
  );
  const kbHistory = new KbHistory(join(options.dataDir, 'kb', 'searches.json'));
  const kbIdOf = (kbId?: string) => {
    const id = kbId?.trim() || profiles.active().defaultKbId;
    if (!id)
      throw new StudioError({
        code: 'STUDIO_NO_KB',
        message: 'Choose a knowledge base: set a default kbId on the profile in Settings.',
      });
    return id;
  };
  const realtime = new RealtimeJobs(
    join(options.dataDir, 'realtime'),
    profiles,
    events,
    () => settings.get().libraryDir,
    options.realtimeClient,
  );
  events.subscribe((event, payload) => {
    if (event === 'batch.updated' && (payload as { download: { state: string } }).download.state === 'done') {
      events.emit('library.changed', { reason: 'download' });
    }
  });
  const sandboxSpeed = options.sandboxTimeScale ?? 20;
  const batches = new BatchEngine({
    dataDir: options.dataDir,
    profiles,
    settings,
    references,
    events,
    clock: options.clock,
    speedFor: (profileId) =>
      profiles.resolve(profileId).kind === 'sandbox' ? sandboxSpeed : (options.gatewaySpeed ?? 1),
  });

  const handlers: StudioHandlers = {
    'app.info': () => ({
      version: options.version,
      host: options.host,
      dataDir: options.dataDir,
      secretStorage: options.secrets.kind,
      sandboxUrl: sandbox.url,
    }),
    'settings.get': () => settings.get(),
    'settings.update': (patch) => settings.update(patch),
    'profiles.list': () => profiles.list(),
    'profiles.save': (input) => {
      const saved = profiles.save(input);
      if (saved.id === settings.get().activeProfileId) void connection.check();
      return saved;
    },
    'profiles.delete': ({ id }) => {
      const wasActive = settings.get().activeProfileId === id;
      const list = profiles.delete(id);
      if (wasActive) void connection.check();
      return list;
    },
    'profiles.activate': ({ id }) => {
      const next = profiles.activate(id);
      void connection.check();
      batches.syncQuietly();
      return next;
    },
    'profiles.test': ({ id }) => checkProfile(profiles.resolve(id)),
    'connection.status': () => connection.current(),
    'connection.check': () => connection.check(),
    'dialog.pickFolder': ({ title }) => (options.pickFolder ? options.pickFolder(title) : null),
    'shell.openExternal': async ({ url }) => {
      const gateways = profiles.list().flatMap((p) => [p.baseUrl, p.kbBaseUrl]);
      if (!isAllowedExternalUrl(url, gateways)) {
        throw new StudioError({
          code: 'STUDIO_LINK_BLOCKED',
          message: 'This link is not on the list of sites the studio opens.',
        });
      }
      if (!options.openExternal) return false;
      await options.openExternal(url);
      return true;
    },
    'batches.models': () => batches.models(),
    'batches.list': () => batches.list(),
    'batches.get': ({ id }) => batches.get(id),
    'batches.items': ({ id }) => batches.items(id),
    'batches.submit': ({ draft, parentBatchId }) => batches.submit(draft, parentBatchId),
    'batches.submissions': () => batches.submissionsList(),
    'batches.lastSent': ({ fingerprint }) => batches.lastSent(fingerprint),
    'batches.sync': (filters) => batches.sync(filters),
    'batches.cancel': ({ id }) => batches.cancel(id),
    'batches.download': ({ id }) => batches.download(id),
    'batches.deleteOutputs': ({ id }) => batches.deleteOutputs(id),
    'batches.deleteRecord': async ({ id, deleteLocalFiles }) => {
      await batches.deleteRecord(id, deleteLocalFiles);
      return true;
    },
    'batches.retryFailed': ({ id }) => batches.retryFailed(id),
    'batches.costs': () => batches.costs(),
    'references.add': ({ name, dataBase64 }) => references.add(name, Buffer.from(dataBase64, 'base64')),
    'references.thumbnail': ({ reference }) => references.thumbnail(reference),
    'references.downscale': ({ reference }) =>
      references.downscale(reference, GATEWAY_LIMITS.maxReferenceBytes),
    'batches.preview': ({ id, customId }) => batches.preview(id, customId),
    'batches.openFolder': async ({ id }) => {
      const path = batches.folderOf(id);
      if (!path)
        throw new StudioError({
          code: 'STUDIO_NOT_DOWNLOADED',
          message: 'This batch is not in the library yet.',
        });
      if (!options.openPath) return { path, opened: false };
      await options.openPath(path);
      return { path, opened: true };
    },
    'kb.readCsv': ({ text }) => readKbCsv(text),
    'kb.template': () => KB_CSV_TEMPLATE,
    'kb.check': ({ rows, mode }) => checkRows(rows, mode),
    'kb.push': ({ rows, mode, prompt, kbId, chunkSize }) =>
      kbPushes.start({ profileId: profiles.active().id, kbId: kbIdOf(kbId), mode, prompt, rows, chunkSize }),
    'kb.pushes': () => kbPushes.list(profiles.active().id),
    'kb.resume': ({ id }) => kbPushes.resume(id, profiles.active().id),
    'kb.pushFromLibrary': ({ ids, kbId }) => {
      const rows = ids.map((id) => {
        const d = library.detail(id);
        const a = [
          d.mark === 'picked' ? 'Picked in review.' : d.mark === 'rejected' ? 'Rejected in review.' : '',
          d.stars ? `Rating: ${d.stars}/5.` : '',
          `Batch: ${d.taskName} (${d.batchId}).`,
          `Model: ${d.model}.`,
          `File: ${d.file}.`,
        ]
          .filter(Boolean)
          .join(' ');
        return { q: d.prompt, a };
      });
      return kbPushes.start({
        profileId: profiles.active().id,
        kbId: kbIdOf(kbId),
        mode: 'index',
        rows,
        chunkSize: 50,
      });
    },
    'kb.search': async ({ prompts, similarity, limit, appId }) => {
      const app = appId?.trim() || profiles.active().defaultAppId;
      if (!app)
        throw new StudioError({
          code: 'STUDIO_NO_APP',
          message: 'Set a default appId on the profile in Settings.',
        });
      const profileId = profiles.active().id;
      const found = await kbClientFor(profileId)
        .search({ appId: app, similarity, limit, prompts })
        .catch((err: unknown) => {
          connection.noteKb(profileId, StudioError.from(err).toView());
          throw err;
        });
      connection.noteKb(profileId);
      const result: KbSearchResult = {
        id: `kbq_${Date.now().toString(36)}`,
        profileId,
        at: Date.now(),
        appId: app,
        similarity,
        limit,
        prompts,
        rawSearch: found.rawSearch.map((h) => ({ id: h.id, q: h.q, a: h.a })),
        userSystemPrompt: found.userSystemPrompt,
        quotePrompt: found.quotePrompt,
      };
      kbHistory.add(result);
      return result;
    },
    'kb.history': () => kbHistory.list(profiles.active().id),
    'realtime.models': () => realtime.models(),
    'realtime.generate': (input) => realtime.generate(input),
    // Generations queue per profile; the window lists the active profile's only.
    'realtime.jobs': () => realtime.list().filter((job) => job.profileId === profiles.active().id),
    'realtime.cancel': ({ id }) => realtime.cancel(id),
    'realtime.image': ({ id, which, index }) => realtime.image(id, which, index),
    'realtime.save': ({ id }) => realtime.save(id),
    'library.query': (query) => library.query(query),
    'library.detail': ({ id }) => library.detail(id),
    'library.thumbnails': async ({ ids }) => {
      const entries = await Promise.all(
        ids.map(
          async (id) =>
            [
              id,
              await thumbnails.dataUrl(library.pathOf(id)).catch((err: unknown) => {
                logCaught(`thumbnail of ${id}`, err);
                return '';
              }),
            ] as const,
        ),
      );
      return Object.fromEntries(entries.filter(([, url]) => url));
    },
    'library.image': async ({ id }) => {
      const detail = library.detail(id);
      return `data:${detail.mime};base64,${(await readFile(detail.path)).toString('base64')}`;
    },
    'library.mark': async ({ ids, mark, stars }) => {
      const count = await library.mark(ids, { mark, stars });
      events.emit('library.changed', { reason: 'marks' });
      return count;
    },
    'library.exportZip': async ({ ids }) => {
      const name = `picks-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.zip`;
      const details = ids.map((id) => library.detail(id));
      if (options.pickSavePath) {
        const path = await options.pickSavePath(name);
        if (!path) return { name, images: 0, canceled: true, path: null, downloadUrl: null };
        const result = await exportZip(details, path);
        return { name, images: result.images, canceled: false, path: result.path, downloadUrl: null };
      }
      const { id, result } = await downloads.prepare(name, (file) => exportZip(details, file));
      return {
        name,
        images: result.images,
        canceled: false,
        path: null,
        downloadUrl: `/api/exports/${id}`,
      };
    },
    'library.exportFolder': ({ ids, folder }) =>
      exportToFolder(
        ids.map((id) => library.detail(id)),
        folder,
      ),
    'library.reveal': async ({ id }) => {
      const path = join(library.detail(id).path, '..', '..');
      if (!options.openPath) return { path, opened: false };
      await options.openPath(path);
      return { path, opened: true };
    },
    'drafts.list': () =>
      drafts.list().map((d) => ({ id: d.id, name: d.name, rows: d.items.length, updatedAt: d.updatedAt })),
    'drafts.get': ({ id }) => drafts.get(id) ?? null,
    'drafts.save': ({ draft }) => {
      const saved = drafts.save(draft);
      return { id: saved.id, updatedAt: saved.updatedAt! };
    },
    'drafts.delete': ({ id }) => {
      drafts.delete(id);
      return true;
    },
    'drafts.readTable': ({ name, dataBase64 }) => readTable(name, Buffer.from(dataBase64, 'base64')),
    'drafts.exportCsv': ({ draft }) => draftToCsv(draft.items),
  };

  const dispatch = createDispatcher(handlers, (text) => redact(text, profiles.allKeys()));
  await batches.start();
  return {
    dispatch,
    events,
    downloads,
    settings,
    profiles,
    batches,
    sandbox,
    close: async () => {
      batches.stop();
      await sandbox.close();
      unlock();
    },
  };
}
