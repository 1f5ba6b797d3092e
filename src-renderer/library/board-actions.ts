import { useTranslation } from 'react-i18next';
import type { LibraryOverview } from '../../src-shared/library-view';
import { useStudioMutation } from '../app/studio-queries';
import { feedbackRunner, type ActionFeedback } from '../shared/action-feedback';
import { askForText, confirmAction } from '../shell/confirm-store';

export type Board = LibraryOverview['collections'][number];

/**
 * What can be done to boards, each with its outcome in words. The overview and the lists follow
 * by `library.changed` (reason `collections`); the overview is also asked again as each settles.
 */
export function useBoardActions(feedback: ActionFeedback) {
  const { t } = useTranslation();
  // Mutations, as on every screen; the overview (counts per board) is asked again once each settles.
  const changes = { invalidates: ['library.overview'] } as const;
  const calls = {
    create: useStudioMutation('collections.create', changes),
    rename: useStudioMutation('collections.rename', changes),
    remove: useStudioMutation('collections.delete', changes),
    setImages: useStudioMutation('collections.setImages', changes),
  };

  const run = feedbackRunner(feedback);

  return {
    /** Asks a name; a board with `ids` in it, or empty. Answers the new board's id. */
    create: (ids: string[] = []) =>
      run(async () => {
        const name = (await askForText(t('boards.createPrompt')))?.trim();
        if (name === undefined) return undefined;
        const board = await calls.create.mutateAsync({ name: name || t('boards.untitled'), ids });
        return ids.length ? t('boards.added', { count: ids.length, name: board.name }) : undefined;
      }),
    rename: (board: Board) =>
      run(async () => {
        const name = (await askForText(t('boards.renamePrompt', { name: board.name }), board.name))?.trim();
        if (!name) return undefined;
        await calls.rename.mutateAsync({ id: board.id, name });
        return undefined;
      }),
    remove: (board: Board, afterwards?: () => void) =>
      run(async () => {
        if (!(await confirmAction(t('boards.removeConfirm', { name: board.name })))) return undefined;
        await calls.remove.mutateAsync({ id: board.id });
        afterwards?.();
        return undefined;
      }),
    /** Puts images on a board (`present`) or takes them off it. */
    setImages: (board: Board, ids: string[], present: boolean) =>
      run(async () => {
        if (!ids.length) return undefined;
        await calls.setImages.mutateAsync({ id: board.id, ids, present });
        return t(present ? 'boards.added' : 'boards.removed', { count: ids.length, name: board.name });
      }),
  };
}
