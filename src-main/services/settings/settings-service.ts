import { randomBytes } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import type { PersonStatus } from '../../../src-shared/person';
import {
  languageOfLocale,
  settingsPatchSchema,
  settingsSchema,
  type Language,
  type Settings,
  type SettingsPatch,
} from '../../../src-shared/settings';
import type { EventHub } from '../dispatch/event-hub';
import type { KeyValueStore } from './key-value-store';
import { checkLibraryDir, plausibleLibraryDir, resolveLibraryDir } from './library-dir';

export const SANDBOX_PROFILE_ID = 'sandbox';

function systemLanguage(): Language {
  const locale = Intl.DateTimeFormat().resolvedOptions().locale || process.env.LANG || 'en';
  return languageOfLocale(locale);
}

/** The operating system's user, as a person's name until they change it in Settings. */
function systemUserName(): string {
  try {
    const name = userInfo().username.trim();
    if (name) return name.slice(0, 60);
  } catch {
    // No user entry (a container, some CI): a plain label instead.
  }
  return process.env.USER || process.env.USERNAME || 'Designer';
}

/** A person id: made once per install, short enough for a file name (`review/<id>.json`). */
function newPersonId(): string {
  return randomBytes(6).toString('hex');
}

type PersonNotice = PersonStatus['notice'];

/** Settings with their defaults; a damaged stored value falls back to the default, field by field. */
export class SettingsService {
  constructor(
    private store: KeyValueStore,
    private dataDir: string,
    private events: EventHub,
  ) {}

  defaults(): Settings {
    return {
      language: systemLanguage(),
      theme: 'system',
      libraryDir: join(this.dataDir, 'Library'),
      autoDownload: true,
      notifications: true,
      activeProfileId: SANDBOX_PROFILE_ID,
      personId: this.personId(),
      personName: systemUserName(),
    };
  }

  /** This install's person id, made and kept the first time it is asked for. */
  private personId(): string {
    const stored = this.store.get('personId');
    if (typeof stored === 'string' && /^[0-9a-f]{12}$/.test(stored)) return stored;
    const id = newPersonId();
    this.store.set('personId', id);
    this.store.set('personClaim', { home: this.home(), since: Date.now() });
    return id;
  }

  /** Where this install is: a data folder copied to another path or machine is somewhere else. */
  private home(): string {
    return `${hostname()}\0${resolve(this.dataDir)}`;
  }

  /**
   * Since when this install has held its person id. A data folder found somewhere other than
   * where it claimed the id (copied, or moved) claims it from now: where two installs share an
   * id, the later claim is the copy (person-presence.ts).
   */
  personSince(): number {
    this.personId();
    const claim = this.store.get('personClaim') as { home?: unknown; since?: unknown } | undefined;
    if (claim?.home === this.home() && typeof claim.since === 'number') return claim.since;
    const since = Date.now();
    this.store.set('personClaim', { home: this.home(), since });
    return since;
  }

  /**
   * Another studio still in use has this install's person id (its data folder was copied): this
   * one takes a new id, and remembers why, so the person can be told in words.
   */
  newPersonId(notice: Omit<NonNullable<PersonNotice>, 'previousId' | 'at'>): Settings {
    const previousId = this.personId();
    this.store.set('personId', newPersonId());
    this.store.set('personClaim', { home: this.home(), since: Date.now() });
    this.store.set('personNotice', { ...notice, previousId, at: Date.now() });
    const next = this.get();
    this.events.emit('settings.changed', next);
    return next;
  }

  personNotice(): PersonNotice {
    const stored = this.store.get('personNotice') as PersonNotice | undefined;
    return stored && typeof stored === 'object' && stored.code === 'PERSON_ID_COPIED' ? stored : null;
  }

  get(): Settings {
    const stored = this.store.get('settings');
    const defaults = this.defaults();
    const merged: Record<string, unknown> = { ...defaults };
    if (stored && typeof stored === 'object') {
      for (const [key, value] of Object.entries(stored)) {
        const field = settingsSchema.shape[key as keyof Settings];
        if (field && field.safeParse(value).success) merged[key] = value;
      }
    }
    // A settings file edited by hand or written by an older version may hold a relative or
    // system path: the library then stays where it would be by default.
    const dir = merged.libraryDir as string;
    merged.libraryDir = plausibleLibraryDir(dir, this.dataDir)
      ? resolveLibraryDir(dir, this.dataDir)
      : defaults.libraryDir;
    // The id is the install's, never a setting: a settings file edited by hand cannot change it.
    merged.personId = defaults.personId;
    return settingsSchema.parse(merged);
  }

  update(patch: SettingsPatch): Settings {
    const clean = settingsPatchSchema.parse(patch);
    if (clean.libraryDir !== undefined) clean.libraryDir = checkLibraryDir(clean.libraryDir, this.dataDir);
    return this.write({ ...this.get(), ...clean });
  }

  setActiveProfile(id: string): Settings {
    return this.write({ ...this.get(), activeProfileId: id });
  }

  private write(next: Settings): Settings {
    this.store.set('settings', next);
    this.events.emit('settings.changed', next);
    return next;
  }
}
