import type { ConnectionStatus } from '../../../src-shared/connection';
import { StudioError } from '../../../src-shared/studio-error';
import { gatewayFetch, readJson } from '../gateway/gateway-request';
import type { EventHub } from '../host/event-hub';
import type { ProfileService, ResolvedProfile } from '../profiles/profile-service';

/**
 * Asks the batch models endpoint whether a profile works: the cheapest call that checks the URL,
 * the key and the key's batch permission at once.
 */
export async function checkProfile(profile: ResolvedProfile): Promise<ConnectionStatus> {
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

/** Keeps the active profile's connection state and pushes it to the renderer when it changes. */
export class ConnectionMonitor {
  private status: ConnectionStatus | undefined;
  private running: Promise<ConnectionStatus> | undefined;

  constructor(
    private profiles: ProfileService,
    private events: EventHub,
  ) {}

  /** The last result for the active profile; the first call waits for a check to finish. */
  async current(): Promise<ConnectionStatus> {
    const active = this.profiles.active();
    if (this.running) return this.running;
    if (this.status && this.status.profileId === active.id) return this.status;
    return this.check();
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
    this.running = checkProfile(active).then((status) => {
      this.running = undefined;
      this.status = status;
      this.events.emit('connection.changed', status);
      return status;
    });
    return this.running;
  }
}
