import { COMPOSE_SCREEN_SHORTCUTS } from '../shell/shortcuts';
import { useScreenShortcuts } from '../shell/use-screen-shortcuts';
import { useCompose } from '../shared/compose-store';

/** Whether a key event is for the grid's undo: not in a dialog, nor in a text field outside the grid. */
function belongsToGrid(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return true;
  if (target.closest('dialog')) return false;
  const field = target.matches('input, textarea, select, [contenteditable="true"]');
  return !field || target.closest('.prompt-grid') !== null;
}

/**
 * The grid's undo and find and replace, from anywhere on the screen but a dialog or a text field outside the grid: there
 * Ctrl+Z is the field's own undo.
 */
export function useComposeShortcuts(openFind: () => void): void {
  const undo = useCompose((s) => s.undo);
  const redo = useCompose((s) => s.redo);
  useScreenShortcuts(
    COMPOSE_SCREEN_SHORTCUTS,
    { undo, redo, findReplace: openFind },
    { inTextFields: true, ignore: (e) => !belongsToGrid(e.target) },
  );
}
