import { join } from 'node:path';
import {
  settingsPatchSchema,
  settingsSchema,
  type Language,
  type Settings,
  type SettingsPatch,
} from '../../../src-shared/settings';
import type { EventHub } from '../host/event-hub';
import type { KeyValueStore } from './key-value-store';
import { checkLibraryDir, plausibleLibraryDir, resolveLibraryDir } from './library-dir';

export const SANDBOX_PROFILE_ID = 'sandbox';

function systemLanguage(): Language {
  const locale = Intl.DateTimeFormat().resolvedOptions().locale || process.env.LANG || 'en';
  return /^zh/i.test(locale) ? 'zh-CN' : 'en';
}

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
    };
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
