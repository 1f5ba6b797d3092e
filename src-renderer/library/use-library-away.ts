import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useStudio } from '../app/studio-context';

/** The Library's reads that a change on disk can make wrong. */
export const LIBRARY_READS = [
  'library.query',
  'library.overview',
  'library.detail',
  'library.lineage',
  'library.acrossModels',
] as const;

/**
 * Heard for the whole window, not only while the Library is open (a small module of its own: the
 * window's first script carries it). A change on disk drops the Library's cached reads that no
 * screen is showing, so coming back draws the current list, not the list as it was left: shown
 * first and then corrected, the old list gave "1 of 1 images" for a moment, and a double click
 * in that moment opened the image that took its place. While the Library is open its own
 * listener (useLibraryLiveUpdates) keeps its reads current, and this one does nothing.
 */
export function useLibraryAway(): void {
  const studio = useStudio();
  const client = useQueryClient();
  useEffect(
    () =>
      studio.on('library.changed', () => {
        if (client.getQueryCache().findAll({ queryKey: ['library.query'], type: 'active' }).length) return;
        for (const method of LIBRARY_READS) client.removeQueries({ queryKey: [method], type: 'inactive' });
      }),
    [studio, client],
  );
}
