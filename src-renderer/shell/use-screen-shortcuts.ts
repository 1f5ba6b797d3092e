import { useHotkeys } from 'react-hotkeys-hook';
import { keyHandler, type Shortcut, type ShortcutHandlers } from './shortcuts';

/**
 * Binds a group of screen-wide shortcuts (see shortcuts.ts) for as long as the calling screen is
 * shown: react-hotkeys-hook listens on the document and unbinds on unmount, so each screen has only
 * its own. Off in text fields unless `inTextFields`, where native editing keys belong to the field.
 */
export function useScreenShortcuts<G extends { shortcuts: readonly Shortcut[] }>(
  group: G,
  handlers: ShortcutHandlers<G>,
  options: {
    inTextFields?: boolean;
    /** Leaves the key alone for this event (e.g. native undo in a field outside the grid). */
    ignore?(e: KeyboardEvent): boolean;
    /** Match the character typed ("?"), whatever key and Shift made it, not the physical key. */
    byCharacter?: boolean;
  } = {},
): void {
  const run = keyHandler(group, handlers);
  useHotkeys(
    group.shortcuts.flatMap((s) => s.keys),
    (e) => void run(e),
    {
      enableOnFormTags: options.inTextFields ?? false,
      ignoreEventWhen: options.ignore,
      useKey: options.byCharacter,
      ignoreModifiers: options.byCharacter,
    },
  );
}
