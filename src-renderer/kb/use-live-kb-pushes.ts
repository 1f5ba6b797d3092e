import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { KbPush } from '../../src-shared/kb-view';
import { useStudio } from '../app/studio-context';
import { queryKey, useStudioQuery, writePushed } from '../app/studio-queries';

/** The knowledge-base uploads, their progress written in by main's events (see useKbPushEvents). */
export function useLiveKbPushes() {
  return useStudioQuery('kb.pushes');
}

/**
 * Main's upload progress written into the cached list of uploads. Heard for the whole window, not
 * only while the upload section is open: an upload that finished meanwhile must not read as still
 * running when the section is opened again.
 */
export function useKbPushEvents(): void {
  const studio = useStudio();
  const client = useQueryClient();
  useEffect(
    () =>
      // Progress goes into the list of the profile that sent the upload, whichever is active now, and
      // only into a list already fetched: a one-row list would pass for that profile's whole history.
      studio.on('kb.pushProgress', (push) =>
        writePushed<KbPush[]>(client, queryKey('kb.pushes', undefined, push.profileId), (list) =>
          !list
            ? list
            : list.some((p) => p.id === push.id)
              ? list.map((p) => (p.id === push.id ? push : p))
              : [push, ...list],
        ),
      ),
    [studio, client],
  );
}
