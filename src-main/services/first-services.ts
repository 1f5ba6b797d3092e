import { join } from 'node:path';
import type { StudioMethod } from '../../src-shared/studio-api';
import { lockDataFolder } from './storage/data-folder-lock';
import { DraftStore } from './drafts/draft-store';
import { draftStoreHandlers } from './api-methods/draft-methods';
import { EventHub } from './dispatch/event-hub';
import { createDispatcher, type Dispatch, type StudioHandlers } from './dispatch/studio-dispatcher';
import { makeDirSync } from './storage/atomic-file';
import { initStudioLog, logCaught } from './log/studio-log';
import { ProfileService } from './profiles/profile-service';
import { redact, type SecretStore } from './secrets/secret-store';
import type { KeyValueStore } from './settings/key-value-store';
import { SettingsService } from './settings/settings-service';

/**
 * What the first screen asks for before it takes a key (Compose: its settings and its draft). These
 * are answered as soon as the first services run, while the rest (the catalog, the poller, the
 * sandbox, the tokenizer…) still loads; every other call waits for all of them. The profiles'
 * methods wait too: their sandbox profile's address is known only once the sandbox listens.
 */
const FIRST_METHODS = [
  'settings.get',
  'drafts.list',
  'drafts.get',
  'drafts.save',
  'drafts.delete',
] as const satisfies readonly StudioMethod[];
const FIRST = new Set<string>(FIRST_METHODS);

export interface FirstServicesOptions {
  dataDir: string;
  store: KeyValueStore;
  secrets: SecretStore;
}

/** The services started first: studio-services.ts builds the rest on them. */
export interface FirstServices {
  events: EventHub;
  settings: SettingsService;
  profiles: ProfileService;
  drafts: DraftStore;
  /** Answers the first methods (`answers`); the studio's own dispatch answers them all. */
  dispatch: Dispatch;
  /** Whether a call is one of the first methods, answered here before the rest has started. */
  answers(method: string): boolean;
  /** The sandbox's address, for its profile, once the rest has started it. */
  setSandboxUrl(url: string): void;
  unlock(): void;
}

/**
 * The data folder (locked against a second studio), the log, the settings, the profiles and the
 * drafts: what the first screen needs, and what nothing else is needed for. Few modules to load,
 * and no sandbox, catalog or poller to start, so both hosts answer the first screen's calls
 * early (issue 36: launch to work).
 */
export function startFirstServices(options: FirstServicesOptions): FirstServices {
  makeDirSync(options.dataDir);
  // The log first, so that a refused lock (another studio on this folder) is on record too. Nothing
  // before the profiles exist handles a key; from then on every line is redacted with their keys.
  let keysToRedact: () => readonly (string | undefined)[] = () => [];
  initStudioLog(join(options.dataDir, 'logs'), (text) => redact(text, keysToRedact()));
  let unlock: () => void;
  try {
    unlock = lockDataFolder(options.dataDir);
  } catch (err) {
    logCaught('data folder lock', err);
    throw err;
  }
  const events = new EventHub();
  let sandboxUrl: string | undefined;
  const settings = new SettingsService(options.store, options.dataDir, events);
  const profiles = new ProfileService(options.store, options.secrets, settings, events, () => sandboxUrl);
  keysToRedact = () => profiles.allKeys();
  const drafts = new DraftStore(join(options.dataDir, 'drafts'));
  const handlers: Pick<StudioHandlers, (typeof FIRST_METHODS)[number]> = {
    'settings.get': () => settings.get(),
    ...draftStoreHandlers(drafts),
  };
  // Only the first methods are ever routed here (`answers`); the table's other entries are never read.
  const dispatch = createDispatcher(handlers as StudioHandlers, (text) => redact(text, profiles.allKeys()));
  return {
    events,
    settings,
    profiles,
    drafts,
    dispatch,
    answers: (method) => FIRST.has(method),
    setSandboxUrl: (url) => (sandboxUrl = url),
    unlock,
  };
}
