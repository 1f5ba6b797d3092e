import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import type { StudioApi } from '../../src-shared/studio-api';
import { StudioError } from '../../src-shared/studio-error';
import { useNavigation } from '../app/navigation-store';
import { useStudio } from '../app/studio-context';
import type { ActionFeedback } from './action-feedback';
import { emptyDraft, nextRowIds, useCompose } from './compose-store';
import { draftActions } from './draft-actions';
import { confirmAction } from '../shell/confirm-store';
import { referenceRoom } from './reference-room';

/**
 * Compose's draft, as the Compose screen would show it: the one being edited, else the newest saved
 * one, else a new one. Loaded into the compose store, so a reference added to it is not lost when
 * the screen restores a draft of its own.
 */
export async function composeDraft(studio: StudioApi): Promise<Draft> {
  const current = useCompose.getState().draft;
  if (current) return current;
  const newest = (await studio.call('drafts.list', {}))[0];
  const draft = (newest && (await studio.call('drafts.get', { id: newest.id }))) || emptyDraft();
  useCompose.getState().load(draft);
  return draft;
}

/**
 * "Use as reference", "Regenerate", "Vary" and "Send prompt to Compose", for a library image, a
 * realtime result or a batch item, with their outcome in words.
 */
export function useReuse({ onMessage, onError }: ActionFeedback) {
  const { t } = useTranslation();
  const studio = useStudio();
  const go = useNavigation((s) => s.go);

  async function run(action: () => Promise<void>) {
    onError(undefined);
    try {
      await action();
    } catch (err) {
      onError(StudioError.from(err));
    }
  }

  return {
    /**
     * Stores the image as a reference (bytes unchanged, by main) and adds it to every row or one:
     * a library image by its id, a realtime result by its job, or a batch item (its preview).
     */
    addReference: (
      from: string | { realtimeJobId: string } | { batchId: string; customId: string },
      row: number | undefined,
    ) =>
      run(async () => {
        const draft = await composeDraft(studio);
        const room = referenceRoom(draft, row);
        if (!room.fits) return onMessage(t('reuse.full', { model: draft.model, limit: room.limit }));
        const ref = await studio.call(
          'reuse.reference',
          typeof from === 'string' ? { libraryId: from } : from,
        );
        useCompose.getState().change(draftActions.addReferences([ref], row));
        onMessage(t('reuse.added'));
        go('compose');
      }),
    /** A new Compose draft with the image's prompt, model and references. */
    regenerate: (libraryId: string) =>
      run(async () => {
        const recipe = await studio.call('reuse.recipe', { id: libraryId });
        if (
          recipe.missingReferences &&
          !(await confirmAction(t('reuse.missing', { count: recipe.missingReferences })))
        )
          return;
        const draft = emptyDraft(recipe.model);
        const customId = recipe.customId || nextRowIds([], 1)[0]!;
        useCompose.getState().load({
          ...draft,
          references: recipe.references,
          items: [
            {
              customId,
              prompt: recipe.prompt,
              outputCount: 1,
              referenceIds: recipe.references.map((r) => r.id),
            },
          ],
        });
        go('compose');
      }),
    /**
     * "Send this prompt to Compose", from the Library and from Realtime alike: a new row with the
     * prompt at the end of Compose's draft, the one the screen would show (composeDraft). Never a
     * new draft beside it: the person gathers prompts into the draft they are working on.
     */
    sendPrompt: (prompt: string) =>
      run(async () => {
        const draft = await composeDraft(studio);
        useCompose.getState().change(draftActions.insertPrompts(draft.items.length, [prompt]));
        go('compose');
      }),
    /** Realtime with the image as an edit input (read from the library by main). */
    vary: (libraryId: string) => go('realtime', `vary/${libraryId}`),
  };
}
