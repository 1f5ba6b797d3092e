import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { RealtimeJob } from '../../src-shared/realtime-view';
import { useStudio } from '../app/studio-context';
import { queryKey, useStudioQuery, writePushed } from '../app/studio-queries';

/** The realtime queue, kept current by main's job events (see useRealtimeJobEvents). */
export function useLiveRealtimeJobs() {
  return useStudioQuery('realtime.jobs');
}

/**
 * Main's job events written into the cached queue. Heard for the whole window, not only while the
 * Realtime screen is open: the cache outlives the screen, and a visit must not show a queue that
 * stopped at the moment the screen was left.
 */
export function useRealtimeJobEvents(): void {
  const studio = useStudio();
  const client = useQueryClient();
  useEffect(
    () =>
      // A job goes into the list of the profile that queued it, whichever is active now, and only into
      // a list already fetched: a one-job list would pass for that profile's whole history.
      studio.on('realtime.updated', (job) =>
        writePushed<RealtimeJob[]>(client, queryKey('realtime.jobs', undefined, job.profileId), (list) => {
          if (!list) return list;
          return list.some((j) => j.id === job.id)
            ? list.map((j) => (j.id === job.id ? job : j))
            : [job, ...list];
        }),
      ),
    [studio, client],
  );
}
