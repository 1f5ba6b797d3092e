import { Menu, type BrowserWindow } from 'electron';
import type { ContextMenuRequest } from '../../src-shared/studio-api';

/**
 * The right-click menu as the OS draws it (the Electron checklist's "native where it matters"):
 * the renderer sends the labels it already translated, and hears back which one was chosen.
 * The close callback can come before the click's on some platforms, so a dismissal is only
 * answered once the click had its turn.
 */
export function showContextMenu(
  window: BrowserWindow | undefined,
  menu: ContextMenuRequest,
): Promise<string | null> {
  return new Promise((resolve) => {
    let answered = false;
    const answer = (id: string | null) => {
      if (answered) return;
      answered = true;
      resolve(id);
    };
    const built = Menu.buildFromTemplate(
      menu.items.map((item) => ({ label: item.label, enabled: item.enabled, click: () => answer(item.id) })),
    );
    built.popup({
      ...(window ? { window } : {}),
      x: menu.x,
      y: menu.y,
      callback: () => setTimeout(() => answer(null), 50),
    });
  });
}
