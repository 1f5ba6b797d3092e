import { createHash } from 'node:crypto';
import type { ConnectionStatus } from '../../../src-shared/connection';
import { StudioError, type StudioErrorView } from '../../../src-shared/studio-error';
import { gatewayFetch, readJson } from '../gateway/gateway-request';
import type { EventHub } from '../dispatch/event-hub';
import type { ProfileService, ResolvedProfile } from '../profiles/profile-service';

/**
 * Asks the batch models endpoint whether a profile works: the cheapest call that checks the URL,
 * the key and the key's batch permission at once.
 */
export async function checkProfile(
  profile: ResolvedProfile,
  knownKeys: readonly string[] = [],
): Promise<ConnectionStatus> {
  const base = { profileId: profile.id, checkedAt: Date.now(), models: [] as string[] };
  if (!profile.gatewayKey) {
    return {
      ...base,
      state: 'error',
      error: new StudioError({
        code: 'STUDIO_KEY_MISSING',
        message: 'This profile has no API key.',
      }).toView(),
    };
  }
  try {
    const answer = await readJson<{ data?: { id?: unknown }[] }>(
      await gatewayFetch({
        baseUrl: profile.baseUrl,
        path: '/v1/images/batches/models',
        auth: { header: 'authorization', value: `Bearer ${profile.gatewayKey}` },
        secrets: knownKeys,
        timeoutMs: 15_000,
      }),
      profile.gatewayKey,
    );
    const models = (answer.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
    return { ...base, state: 'ok', models };
  } catch (err) {
    return { ...base, state: 'error', error: StudioError.from(err).toView() };
  }
}

/** A refusal that says the key itself is wrong, rather than this request or this knowledge base. */
function isKeyRefusal(error: StudioErrorView): boolean {
  return error.code === 'unAuthApiKey' || error.code === 'STUDIO_KEY_MISSING' || error.httpStatus === 401;
}

const fingerprint = (key: string | undefined) =>
  createHash('sha256')
    .update(key ?? '')
    .digest('hex');

/**
 * Keeps the active profile's connection state and pushes it to the renderer when it changes. The
 * knowledge base has a key of its own: how it last fared is kept beside the batch check, for as
 * long as the profile keeps that key.
 */
export class ConnectionMonitor {
  private status: ConnectionStatus | undefined;
  private running: Promise<ConnectionStatus> | undefined;
  private kb = new Map<string, { key: string; standing: NonNullable<ConnectionStatus['kb']> }>();

  constructor(
    private profiles: ProfileService,
    private events: EventHub,
  ) {}

  /** The last result for the active profile; the first call waits for a check to finish. */
  async current(): Promise<ConnectionStatus> {
    const active = this.profiles.active();
    if (this.running) return this.running;
    if (this.status && this.status.profileId === active.id) return this.withKb(this.status);
    return this.check();
  }

  /** Records how a knowledge-base request went: a success clears a refusal, a refused key sets one. */
  noteKb(profileId: string, error?: StudioErrorView): void {
    if (error && !isKeyRefusal(error)) return;
    const standing: NonNullable<ConnectionStatus['kb']> = error ? { state: 'error', error } : { state: 'ok' };
    const key = this.kbKeyOf(profileId);
    if (key === undefined) return;
    const before = this.kb.get(profileId)?.standing;
    this.kb.set(profileId, { key, standing });
    if (before?.state === standing.state && before.error?.code === standing.error?.code) return;
    if (this.status?.profileId === profileId && !this.running)
      this.events.emit('connection.changed', this.withKb(this.status));
  }

  /** The fingerprint of a profile's knowledge-base key; undefined once the profile is deleted. */
  private kbKeyOf(profileId: string): string | undefined {
    try {
      return fingerprint(this.profiles.resolve(profileId).kbKey);
    } catch {
      return undefined;
    }
  }

  private withKb(status: ConnectionStatus): ConnectionStatus {
    const known = this.kb.get(status.profileId);
    const current = known && known.key === this.kbKeyOf(status.profileId);
    const { kb: _old, ...rest } = status;
    return current ? { ...rest, kb: known.standing } : rest;
  }

  check(): Promise<ConnectionStatus> {
    if (this.running) return this.running;
    const active = this.profiles.active();
    this.events.emit('connection.changed', {
      profileId: active.id,
      state: 'checking',
      models: [],
      checkedAt: Date.now(),
    });
    this.running = checkProfile(active, this.profiles.allKeys()).then((status) => {
      this.running = undefined;
      this.status = status;
      const shown = this.withKb(status);
      this.events.emit('connection.changed', shown);
      return shown;
    });
    return this.running;
  }
}
