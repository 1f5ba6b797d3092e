import { useEffect } from 'react';
import { useStudioFetch, useStudioQuery } from '../app/studio-queries';
import { emptyDraft, useCompose } from '../shared/compose-store';

/**
 * The grid comes back as it was: the newest saved draft, or a fresh one. A draft without a model
 * takes the first the gateway offers. Answers the models, for the screen's model picker.
 */
export function useDraftRestore() {
  const draft = useCompose((s) => s.draft);
  const load = useCompose((s) => s.load);
  const adjust = useCompose((s) => s.adjust);
  const fetch = useStudioFetch();
  const models = useStudioQuery('batches.models', undefined, { retry: false });
  const drafts = useStudioQuery('drafts.list');

  useEffect(() => {
    if (draft || !drafts.data) return;
    const newest = drafts.data[0];
    if (!newest) return load(emptyDraft(models.data?.[0] ?? ''));
    void fetch('drafts.get', { id: newest.id }).then((d) => load(d ?? emptyDraft(models.data?.[0] ?? '')));
  }, [draft, drafts.data, load, models.data, fetch]);

  useEffect(() => {
    // Not an undo step: the first Ctrl+Z after a paste must take the paste back, whenever the
    // models arrived.
    if (draft && !draft.model && models.data?.[0]) adjust((d) => ({ ...d, model: models.data![0]! }));
  }, [draft, models.data, adjust]);

  return models;
}
