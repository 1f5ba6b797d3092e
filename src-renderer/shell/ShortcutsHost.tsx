import { create } from 'zustand';
import { useNavigation } from '../app/navigation-store';
import { GLOBAL_SHORTCUTS } from './shortcuts';
import { ShortcutsOverlay } from './ShortcutsOverlay';
import { useScreenShortcuts } from './use-screen-shortcuts';

/** Whether the cheat sheet is open: `?` opens it, and so does a screen's own `?` button. */
export const useShortcutsOverlay = create<{ open: boolean }>(() => ({ open: false }));

/** `?` anywhere but in a text field shows the current screen's shortcuts. */
export function ShortcutsHost() {
  const screen = useNavigation((s) => s.screen);
  const open = useShortcutsOverlay((s) => s.open);
  useScreenShortcuts(
    GLOBAL_SHORTCUTS,
    { showShortcuts: () => useShortcutsOverlay.setState({ open: true }) },
    { byCharacter: true },
  );
  return open ? (
    <ShortcutsOverlay screen={screen} onClose={() => useShortcutsOverlay.setState({ open: false })} />
  ) : null;
}
