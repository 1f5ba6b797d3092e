import {
  useMutation,
  useQuery,
  useQueryClient,
  type MutationOptions,
  type QueryClient,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { MethodInput, MethodOutput, StudioApi, StudioMethod } from '../../src-shared/studio-api';
import type { StudioError } from '../../src-shared/studio-error';
import { RECONNECTED_EVENT } from './studio-client';
import { useStudio } from './studio-context';

/**
 * Methods whose answer depends on the active profile: batches, costs and items; realtime models and
 * jobs; knowledge-base pushes and history. Their cache is kept per profile, so after a switch no
 * screen shows, or acts on, what belongs to the profile before.
 */
const PROFILE_SCOPED = /^(batches\.|realtime\.|kb\.(pushes|history)$)/;

export function isProfileScoped(method: StudioMethod): boolean {
  return PROFILE_SCOPED.test(method);
}

/** The active profile as the window last learnt it; event handlers read it between renders. */
let activeProfile: string | undefined;

export function activeProfileId(): string | undefined {
  return activeProfile;
}

function learnActiveProfile(id: string | undefined): void {
  if (id) activeProfile = id;
}

/** The cache key of a call: profile-scoped methods carry the profile they were asked for. */
export const queryKey = <M extends StudioMethod>(
  method: M,
  input?: MethodInput<M>,
  profileId: string | undefined = activeProfile,
) => (isProfileScoped(method) ? [method, input ?? {}, profileId ?? null] : [method, input ?? {}]);

/** Reads that will be asked again once the answer on its way has come. */
const askAgain = new Set<string>();

/**
 * Writes a pushed state into a cached answer. An answer still on its way may have been made before
 * the event (its request served, its response not yet read): written now, the event would be
 * overwritten by it, or (with nothing cached yet) dropped. Then the read is asked once more when
 * that answer has come, so the newest state is the one that stays. Not cancelled and asked anew at
 * each event: a busy engine's stream of events would then keep any answer from ever arriving.
 */
export function writePushed<T>(
  client: QueryClient,
  key: readonly unknown[],
  update: (cached: T | undefined) => T | undefined,
): void {
  const cache = client.getQueryCache();
  const query = cache.find({ queryKey: key, exact: true });
  if (query?.state.fetchStatus !== 'fetching') {
    client.setQueryData<T>(key, update);
    return;
  }
  if (askAgain.has(query.queryHash)) return;
  askAgain.add(query.queryHash);
  const off = cache.subscribe((event) => {
    if (event.query !== query || query.state.fetchStatus === 'fetching') return;
    off();
    askAgain.delete(query.queryHash);
    void client.invalidateQueries({ queryKey: key, exact: true });
  });
}

/** Main-process state, read through react-query; events below keep it fresh without polling. */
export function useStudioQuery<M extends StudioMethod>(
  method: M,
  input?: MethodInput<M>,
  options: Partial<UseQueryOptions<MethodOutput<M>, StudioError>> = {},
) {
  const studio = useStudio();
  const scoped = isProfileScoped(method);
  const settings = useQuery<MethodOutput<'settings.get'>, StudioError>({
    queryKey: queryKey('settings.get'),
    queryFn: () => studio.call('settings.get', {}),
    enabled: scoped,
  });
  const profileId = settings.data?.activeProfileId;
  learnActiveProfile(profileId);
  return useQuery<MethodOutput<M>, StudioError>({
    queryKey: queryKey(method, input, profileId),
    queryFn: () => studio.call(method, (input ?? {}) as MethodInput<M>),
    ...options,
    // A profile-scoped answer is asked for only once the window knows whose it is.
    enabled: (options.enabled ?? true) && (!scoped || profileId !== undefined),
  });
}

interface StudioMutationOptions {
  /**
   * The reads this call changes and no event keeps fresh: once it settles (done or failed), every
   * cached answer of these methods, whatever its input or profile, is fetched again.
   */
  invalidates?: readonly StudioMethod[];
}

/**
 * A call that changes something, or that a user's action asks for once: its pending state, error and
 * answer live in the mutation, and what it makes stale is named here rather than refetched by hand.
 * The mutation stays pending until those reads are fresh, so a button re-enables on the new state.
 */
export function useStudioMutation<M extends StudioMethod>(method: M, options: StudioMutationOptions = {}) {
  const studio = useStudio();
  const client = useQueryClient();
  return useMutation(studioMutationOptions(studio, client, method, options));
}

/** What useStudioMutation hands react-query; apart, so it can be tested without rendering. */
export function studioMutationOptions<M extends StudioMethod>(
  studio: Pick<StudioApi, 'call'>,
  client: QueryClient,
  method: M,
  { invalidates = [] }: StudioMutationOptions,
): MutationOptions<MethodOutput<M>, StudioError, MethodInput<M>> {
  return {
    mutationFn: (input) => studio.call(method, input),
    onSettled: () => Promise.all(invalidates.map((m) => client.invalidateQueries({ queryKey: [m] }))),
  };
}

/**
 * A read asked for at the moment of an action (open this draft, was this sent before?): it always goes
 * to main, and its answer lands in the same cache a screen's query reads.
 */
export function useStudioFetch() {
  const studio = useStudio();
  const client = useQueryClient();
  return useCallback(
    <M extends StudioMethod>(method: M, input: MethodInput<M>) =>
      client.fetchQuery<MethodOutput<M>, StudioError>({
        queryKey: queryKey(method, input),
        queryFn: () => studio.call(method, input),
        staleTime: 0,
        // The action that asked reports a failure at once; it is not a background read to retry.
        retry: false,
      }),
    [studio, client],
  );
}

/** Pushed events write straight into the query cache, so every screen sees them at once. */
export function useLiveStudioState(): void {
  const studio = useStudio();
  const client = useQueryClient();
  useEffect(() => {
    const offs = [
      // Through writePushed, as every event is: an answer on its way, made before the change (the
      // window's first settings, a language picked as they came), overwrote it and stayed.
      studio.on('settings.changed', (s) => {
        // Learnt before the cache changes, so handlers run by the change use the new profile's keys.
        learnActiveProfile(s.activeProfileId);
        writePushed(client, queryKey('settings.get'), () => s);
      }),
      studio.on('profiles.changed', (p) => writePushed(client, queryKey('profiles.list'), () => p)),
      studio.on('connection.changed', (c) => writePushed(client, queryKey('connection.status'), () => c)),
      studio.on('updates.changed', (u) => writePushed(client, queryKey('updates.status'), () => u)),
    ];
    // After a lost event stream comes back, whatever changed meanwhile is fetched again.
    const refetch = () => void client.invalidateQueries();
    window.addEventListener(RECONNECTED_EVENT, refetch);
    return () => {
      offs.forEach((off) => off());
      window.removeEventListener(RECONNECTED_EVENT, refetch);
    };
  }, [studio, client]);
}
