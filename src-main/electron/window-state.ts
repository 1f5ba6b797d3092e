import { screen, type BrowserWindow, type Rectangle } from 'electron';
import type Store from 'electron-store';
import { clampToArea } from './window-bounds';

const KEY = 'window';
const DEFAULT = { width: 1440, height: 920 };

interface SavedWindow {
  bounds: Rectangle;
  maximized: boolean;
}

function isSaved(value: unknown): value is SavedWindow {
  const v = value as SavedWindow | undefined;
  return (
    !!v &&
    typeof v.maximized === 'boolean' &&
    ['x', 'y', 'width', 'height'].every((k) => Number.isFinite(v.bounds?.[k as keyof Rectangle]))
  );
}

/**
 * Where the window was last time, moved onto a display that is still there: a monitor unplugged
 * since, or a smaller resolution, must not leave the window off screen. No saved state (or a
 * damaged one) gives the default size, centred by Electron.
 */
export function restoredBounds(store: Store<Record<string, unknown>>): {
  bounds: Partial<Rectangle>;
  maximized: boolean;
} {
  const saved = store.get(KEY);
  if (!isSaved(saved)) return { bounds: DEFAULT, maximized: false };
  const area = screen.getDisplayMatching(saved.bounds).workArea;
  return { bounds: clampToArea(saved.bounds, area), maximized: saved.maximized };
}

/** Remembers the window's normal bounds and whether it is maximized, as it moves and when it closes. */
export function rememberWindowState(win: BrowserWindow, store: Store<Record<string, unknown>>): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    clearTimeout(timer);
    if (win.isDestroyed() || win.isMinimized() || win.isFullScreen()) return;
    // getNormalBounds: the size to come back to when a maximized window is restored.
    store.set(KEY, { bounds: win.getNormalBounds(), maximized: win.isMaximized() } satisfies SavedWindow);
  };
  // Moving fires many events: write once it settles, and surely on close.
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('maximize', save);
  win.on('unmaximize', save);
  win.on('close', save);
}
