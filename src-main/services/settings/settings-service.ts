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
    return settingsSchema.parse(merged);
  }

  update(patch: SettingsPatch): Settings {
    const clean = settingsPatchSchema.parse(patch);
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
