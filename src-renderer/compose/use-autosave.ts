import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Draft } from '../../src-shared/draft';
import { useStudio } from '../app/studio-context';
import { queryKey } from '../app/studio-queries';
import { draftWriterFor } from './draft-writer';

/**
 * Saves the draft shortly after each change, so a crash or a restart never loses a grid. Saves go
 * through the draft writer, not a mutation: they must reach main one at a time and in order.
 */
export function useAutosave(draft: Draft | null): 'saved' | 'saving' {
  const studio = useStudio();
  const client = useQueryClient();
  const [state, setState] = useState<'saved' | 'saving'>('saved');
  useEffect(() => {
    if (!draft) return;
    setState('saving');
    const timer = setTimeout(() => {
      void draftWriterFor(studio)
        .save(draft)
        .then(() => {
          setState('saved');
          void client.invalidateQueries({ queryKey: queryKey('drafts.list') });
        });
    }, 400);
    return () => clearTimeout(timer);
  }, [draft, studio, client]);
  return state;
}
