import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { MethodInput, MethodOutput, StudioMethod } from '../../src-shared/studio-api';
import type { StudioError } from '../../src-shared/studio-error';
import { RECONNECTED_EVENT } from './studio-client';
import { useStudio } from './studio-context';

export const queryKey = <M extends StudioMethod>(method: M, input?: MethodInput<M>) =>
  [method, input ?? {}] as const;

/** Main-process state, read through react-query; events below keep it fresh without polling. */
export function useStudioQuery<M extends StudioMethod>(
  method: M,
  input?: MethodInput<M>,
  options: Partial<UseQueryOptions<MethodOutput<M>, StudioError>> = {},
) {
  const studio = useStudio();
  return useQuery<MethodOutput<M>, StudioError>({
    queryKey: queryKey(method, input),
    queryFn: () => studio.call(method, (input ?? {}) as MethodInput<M>),
    ...options,
  });
}

export function useStudioMutation<M extends StudioMethod>(method: M) {
  const studio = useStudio();
  return useMutation<MethodOutput<M>, StudioError, MethodInput<M>>({
    mutationFn: (input) => studio.call(method, input),
  });
}

/** Pushed events write straight into the query cache, so every screen sees them at once. */
export function useLiveStudioState(): void {
  const studio = useStudio();
  const client = useQueryClient();
  useEffect(() => {
    const offs = [
      studio.on('settings.changed', (s) => client.setQueryData(queryKey('settings.get'), s)),
      studio.on('profiles.changed', (p) => client.setQueryData(queryKey('profiles.list'), p)),
      studio.on('connection.changed', (c) => client.setQueryData(queryKey('connection.status'), c)),
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
