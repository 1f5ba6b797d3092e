import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { KbPush } from '../../src-shared/kb-view';
import { useStudio } from '../app/studio-context';
import { queryKey, useStudioQuery } from '../app/studio-queries';

/** The knowledge-base uploads, their progress written in by main's events rather than asked for again. */
export function useLiveKbPushes() {
  const studio = useStudio();
  const client = useQueryClient();
  const pushes = useStudioQuery('kb.pushes');
  useEffect(
    () =>
      // Progress goes into the list of the profile that sent the upload, whichever is active now, and
      // only into a list already fetched: a one-row list would pass for that profile's whole history.
      studio.on('kb.pushProgress', (push) =>
        client.setQueryData<KbPush[]>(queryKey('kb.pushes', undefined, push.profileId), (list) =>
          !list
            ? list
            : list.some((p) => p.id === push.id)
              ? list.map((p) => (p.id === push.id ? push : p))
              : [push, ...list],
        ),
      ),
    [studio, client],
  );
  return pushes;
}
