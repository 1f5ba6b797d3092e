import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { keyHandler, LIBRARY_SCREEN_SHORTCUTS } from '../shell/shortcuts';
import type { MarkFn } from './library-hooks';
import { stepSize, takeRedo, takeUndo, undoWrites } from './library-mark-history';
import { useLibraryPrefs } from './library-prefs';
import { openWhatWorked } from './what-worked/what-worked-store';

const inTextField = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) &&
  !(target instanceof HTMLInputElement && target.type === 'range');

/**
 * The Library's screen-wide keys, in the gallery and the loupe alike: Ctrl+= / Ctrl+- / Ctrl+0 for
 * the thumbnail size (instead of the page zoom), Ctrl+Z / Ctrl+Shift+Z for the marks, W for "What
 * worked". Text fields keep their own undo.
 */
export function useLibraryScreenKeys(mark: MarkFn, onMessage: (message: string) => void): void {
  const { t } = useTranslation();
  const latest = useRef({ mark, onMessage, t });
  latest.current = { mark, onMessage, t };
  useEffect(() => {
    const run = keyHandler(LIBRARY_SCREEN_SHORTCUTS, {
      thumbLarger: () => useLibraryPrefs.getState().stepThumbSize(1),
      thumbSmaller: () => useLibraryPrefs.getState().stepThumbSize(-1),
      thumbDefault: () => useLibraryPrefs.getState().stepThumbSize(0),
      undoMark: () => {
        const step = takeUndo();
        if (!step) return;
        const { mark, onMessage, t } = latest.current;
        for (const write of undoWrites(step)) mark(write.ids, write.change, { record: false });
        onMessage(t('library.undone', { count: stepSize(step) }));
      },
      redoMark: () => {
        const step = takeRedo();
        if (!step) return;
        const { mark, onMessage, t } = latest.current;
        for (const write of step.writes) mark(write.ids, write.after, { record: false });
        onMessage(t('library.redone', { count: stepSize(step) }));
      },
      // From the gallery only: over the loupe or a dialog, W is no reason to leave it.
      whatWorked: () => (document.querySelector('dialog[open]') ? false : openWhatWorked()),
    });
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || inTextField(e.target)) return;
      run(e);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
