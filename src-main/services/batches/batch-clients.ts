import { createHash } from 'node:crypto';
import { StudioError } from '../../../src-shared/studio-error';
import { BatchClient } from '../gateway/batch-client';
import type { ProfileService } from '../profiles/profile-service';
import { logCaught } from '../log/studio-log';

export interface BatchClientsDeps {
  profiles: Pick<ProfileService, 'resolve' | 'allKeys'>;
  /** How much faster than real time a profile's gateway runs: the built-in sandbox's time scale. */
  speedFor?(profileId: string): number;
  /** How long a download may send nothing before it counts as cut (BatchClient's default otherwise). */
  stallMs?: number;
}

/**
 * Each profile's way to its gateway: its batch client, the account its downloads are counted
 * against, and how fast its gateway's time runs.
 */
export class BatchClients {
  private clients = new Map<string, BatchClient>();

  constructor(private deps: BatchClientsDeps) {}

  speedFor(profileId: string): number {
    try {
      return this.deps.speedFor?.(profileId) ?? 1;
    } catch (err) {
      logCaught('gateway speed', err);
      return 1;
    }
  }

  /** One client per profile, made again when its address or key changes. */
  clientFor(profileId: string): BatchClient {
    const profile = this.deps.profiles.resolve(profileId);
    if (!profile.gatewayKey)
      throw new StudioError({ code: 'STUDIO_KEY_MISSING', message: 'This profile has no API key.' });
    const id = `${profileId}|${profile.baseUrl}|${createHash('sha256').update(profile.gatewayKey).digest('hex')}`;
    let client = this.clients.get(id);
    if (!client)
      this.clients.set(
        id,
        (client = new BatchClient(
          {
            baseUrl: profile.baseUrl,
            key: profile.gatewayKey,
            knownKeys: () => this.deps.profiles.allKeys(),
          },
          undefined,
          this.deps.stallMs,
        )),
      );
    return client;
  }

  /** Downloads are limited per gateway account, which may serve several profiles. */
  accountOf(profileId: string): string {
    const profile = this.deps.profiles.resolve(profileId);
    return `${profile.baseUrl}|${createHash('sha256')
      .update(profile.gatewayKey ?? '')
      .digest('hex')}`;
  }
}
