import type { ProfileService } from '../profiles/profile-service';
import type { RealtimeJobs } from '../realtime/realtime-jobs';
import type { FeatureHandlers } from './feature-methods';

/** Realtime: one image now, queued per profile. */
export function realtimeHandlers(
  realtime: RealtimeJobs,
  profiles: ProfileService,
): FeatureHandlers<'realtime'> {
  return {
    'realtime.models': () => realtime.models(),
    'realtime.generate': (input) => realtime.generate(input),
    // Generations queue per profile; the window lists the active profile's only.
    'realtime.jobs': () => realtime.list().filter((job) => job.profileId === profiles.active().id),
    'realtime.cancel': ({ id }) => realtime.cancel(id),
    'realtime.save': ({ id }) => realtime.save(id),
  };
}
