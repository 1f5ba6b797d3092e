import { StudioError } from '../../../src-shared/studio-error';
import type { ResolvedProfile } from '../profiles/profile-service';
import { KbClient } from './kb-client';

/** The knowledge base an upload goes to: the one asked for, else the profile's default. */
export function kbIdFor(profile: Pick<ResolvedProfile, 'defaultKbId'>, kbId?: string): string {
  const id = kbId?.trim() || profile.defaultKbId;
  if (!id)
    throw new StudioError({
      code: 'STUDIO_NO_KB',
      message: 'Choose a knowledge base: set a default kbId on the profile in Settings.',
    });
  return id;
}

/** The application a search asks: the one asked for, else the profile's default. */
export function appIdFor(profile: Pick<ResolvedProfile, 'defaultAppId'>, appId?: string): string {
  const id = appId?.trim() || profile.defaultAppId;
  if (!id)
    throw new StudioError({
      code: 'STUDIO_NO_APP',
      message: 'Set a default appId on the profile in Settings.',
    });
  return id;
}

/** A client on a profile's knowledge-base key; a profile without one cannot use the knowledge base. */
export function kbClientOf(
  profile: Pick<ResolvedProfile, 'kbBaseUrl' | 'kbKey'>,
  knownKeys: () => readonly string[],
): KbClient {
  if (!profile.kbKey)
    throw new StudioError({
      code: 'STUDIO_KEY_MISSING',
      message: 'This profile has no knowledge-base key.',
    });
  return new KbClient({ baseUrl: profile.kbBaseUrl, key: profile.kbKey, knownKeys });
}
