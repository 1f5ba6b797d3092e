import { useState } from 'react';
import { useNavigation } from '../app/navigation-store';
import { GLOBAL_SHORTCUTS } from './shortcuts';
import { ShortcutsOverlay } from './ShortcutsOverlay';
import { useScreenShortcuts } from './use-screen-shortcuts';

/** `?` anywhere but in a text field shows the current screen's shortcuts. */
export function ShortcutsHost() {
  const screen = useNavigation((s) => s.screen);
  const [open, setOpen] = useState(false);
  useScreenShortcuts(GLOBAL_SHORTCUTS, { showShortcuts: () => setOpen(true) }, { byCharacter: true });
  return open ? <ShortcutsOverlay screen={screen} onClose={() => setOpen(false)} /> : null;
}
