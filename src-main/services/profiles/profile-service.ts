import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  profileInputSchema,
  profileSchema,
  type KeyStatus,
  type Profile,
  type ProfileInput,
} from '../../../src-shared/profile';
import { StudioError } from '../../../src-shared/studio-error';
import type { EventHub } from '../dispatch/event-hub';
import type { SecretStore } from '../secrets/secret-store';
import type { KeyValueStore } from '../settings/key-value-store';
import { SANDBOX_PROFILE_ID, type SettingsService } from '../settings/settings-service';
import { logCaught } from '../log/studio-log';

/** A profile as kept in settings: what the renderer sees, less the key statuses, which come from the secret store. */
const storedProfileSchema = profileSchema.omit({ gatewayKey: true, kbKey: true });
type StoredProfile = z.infer<typeof storedProfileSchema>;

/** A profile with its keys, for services in the main process only. */
export interface ResolvedProfile {
  id: string;
  name: string;
  kind: StoredProfile['kind'];
  baseUrl: string;
  kbBaseUrl: string;
  defaultAppId: string;
  defaultKbId: string;
  monthlyBudget?: number | null;
  gatewayKey?: string;
  kbKey?: string;
}

/** The demo keys the sandbox gateway knows, so a new user can try everything with no account. */
export const SANDBOX_KEYS = {
  gateway: 'sk-sandbox-alice',
  kb: 'kb-sandbox',
  appId: 'app-sandbox',
  kbId: 'kb-docs',
};

const secretName = (id: string, which: 'gateway' | 'kb') => `profile:${id}:${which}`;

function keyStatus(value: string | undefined): KeyStatus {
  return value ? { set: true, last4: value.slice(-4) } : { set: false };
}

export class ProfileService {
  constructor(
    private store: KeyValueStore,
    private secrets: SecretStore,
    private settings: SettingsService,
    private events: EventHub,
    private sandboxUrl: () => string | undefined,
  ) {
    this.ensureSandboxProfile();
  }

  private stored(): StoredProfile[] {
    const parsed = z.array(storedProfileSchema).safeParse(this.store.get('profiles'));
    return parsed.success ? parsed.data : [];
  }

  private ensureSandboxProfile(): void {
    const profiles = this.stored();
    if (profiles.some((p) => p.id === SANDBOX_PROFILE_ID)) return;
    this.store.set('profiles', [
      {
        id: SANDBOX_PROFILE_ID,
        name: 'Sandbox',
        kind: 'sandbox',
        baseUrl: '',
        kbBaseUrl: '',
        defaultAppId: SANDBOX_KEYS.appId,
        defaultKbId: SANDBOX_KEYS.kbId,
        monthlyBudget: null,
      },
      ...profiles,
    ]);
    if (!this.secrets.get(secretName(SANDBOX_PROFILE_ID, 'gateway'))) {
      this.secrets.set(secretName(SANDBOX_PROFILE_ID, 'gateway'), SANDBOX_KEYS.gateway);
      this.secrets.set(secretName(SANDBOX_PROFILE_ID, 'kb'), SANDBOX_KEYS.kb);
    }
  }

  resolve(id: string): ResolvedProfile {
    const profile = this.stored().find((p) => p.id === id);
    if (!profile) throw new StudioError({ code: 'STUDIO_PROFILE_NOT_FOUND', message: `No profile "${id}".` });
    const sandbox = profile.kind === 'sandbox' ? (this.sandboxUrl() ?? '') : undefined;
    return {
      ...profile,
      baseUrl: sandbox ?? profile.baseUrl,
      kbBaseUrl: sandbox ?? (profile.kbBaseUrl || profile.baseUrl),
      gatewayKey: this.secrets.get(secretName(id, 'gateway')),
      kbKey: this.secrets.get(secretName(id, 'kb')),
    };
  }

  active(): ResolvedProfile {
    const id = this.settings.get().activeProfileId;
    try {
      return this.resolve(id);
    } catch (err) {
      logCaught('active profile, falling back to the sandbox', err);
      return this.resolve(SANDBOX_PROFILE_ID);
    }
  }

  private view(p: StoredProfile): Profile {
    const resolved = this.resolve(p.id);
    return {
      id: p.id,
      name: p.name,
      kind: p.kind,
      baseUrl: resolved.baseUrl,
      kbBaseUrl: resolved.kbBaseUrl,
      defaultAppId: p.defaultAppId,
      defaultKbId: p.defaultKbId,
      monthlyBudget: p.monthlyBudget,
      gatewayKey: keyStatus(resolved.gatewayKey),
      kbKey: keyStatus(resolved.kbKey),
    };
  }

  list(): Profile[] {
    return this.stored().map((p) => this.view(p));
  }

  save(raw: ProfileInput): Profile {
    const input = profileInputSchema.parse(raw);
    const profiles = this.stored();
    const existing = input.id ? profiles.find((p) => p.id === input.id) : undefined;
    if (input.id && !existing) {
      throw new StudioError({ code: 'STUDIO_PROFILE_NOT_FOUND', message: `No profile "${input.id}".` });
    }
    const id = existing?.id ?? `p_${randomBytes(6).toString('hex')}`;
    const kind = existing?.kind ?? 'gateway';
    const next: StoredProfile = {
      id,
      name: input.name,
      kind,
      // The sandbox profile always points at the sandbox of this run.
      baseUrl: kind === 'sandbox' ? '' : input.baseUrl.replace(/\/+$/, ''),
      kbBaseUrl: kind === 'sandbox' ? '' : input.kbBaseUrl.replace(/\/+$/, ''),
      defaultAppId: input.defaultAppId,
      defaultKbId: input.defaultKbId,
      monthlyBudget:
        input.monthlyBudget === undefined ? (existing?.monthlyBudget ?? null) : input.monthlyBudget,
    };
    this.store.set(
      'profiles',
      existing ? profiles.map((p) => (p.id === id ? next : p)) : [...profiles, next],
    );
    for (const which of ['gateway', 'kb'] as const) {
      const value = which === 'gateway' ? input.gatewayKey : input.kbKey;
      if (value === undefined) continue;
      if (value === '') this.secrets.delete(secretName(id, which));
      else this.secrets.set(secretName(id, which), value);
    }
    this.changed();
    return this.view(next);
  }

  delete(id: string): Profile[] {
    if (id === SANDBOX_PROFILE_ID) {
      throw new StudioError({
        code: 'STUDIO_PROFILE_BUILT_IN',
        message: 'The Sandbox profile is built in and cannot be deleted.',
      });
    }
    const profiles = this.stored();
    if (!profiles.some((p) => p.id === id)) {
      throw new StudioError({ code: 'STUDIO_PROFILE_NOT_FOUND', message: `No profile "${id}".` });
    }
    this.store.set(
      'profiles',
      profiles.filter((p) => p.id !== id),
    );
    this.secrets.delete(secretName(id, 'gateway'));
    this.secrets.delete(secretName(id, 'kb'));
    if (this.settings.get().activeProfileId === id) this.settings.setActiveProfile(SANDBOX_PROFILE_ID);
    this.changed();
    return this.list();
  }

  activate(id: string) {
    this.resolve(id);
    return this.settings.setActiveProfile(id);
  }

  /** Every key in use, so that errors and logs can be scrubbed of them. */
  allKeys(): string[] {
    return this.stored().flatMap((p) => {
      const r = this.resolve(p.id);
      return [r.gatewayKey, r.kbKey].filter((k): k is string => !!k);
    });
  }

  private changed(): void {
    this.events.emit('profiles.changed', this.list());
  }
}
