import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { RealtimeJob } from '../../src-shared/realtime-view';
import { useStudio } from '../app/studio-context';
import { queryKey, useStudioQuery } from '../app/studio-queries';

/** The realtime queue, kept current by main's job events rather than by asking again. */
export function useLiveRealtimeJobs() {
  const studio = useStudio();
  const client = useQueryClient();
  const jobs = useStudioQuery('realtime.jobs');
  useEffect(
    () =>
      // A job goes into the list of the profile that queued it, whichever is active now, and only into
      // a list already fetched: a one-job list would pass for that profile's whole history.
      studio.on('realtime.updated', (job) =>
        client.setQueryData<RealtimeJob[]>(queryKey('realtime.jobs', undefined, job.profileId), (list) => {
          if (!list) return list;
          return list.some((j) => j.id === job.id)
            ? list.map((j) => (j.id === job.id ? job : j))
            : [job, ...list];
        }),
      ),
    [studio, client],
  );
  return jobs;
}
