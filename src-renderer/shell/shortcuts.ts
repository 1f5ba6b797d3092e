import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { Messages } from '../../src-shared/i18n/en';
import type { MessageName } from '../../src-shared/i18n/message-keys';
import type { Screen } from '../app/navigation-store';

/**
 * Every keyboard shortcut of the studio, declared once per screen. The `?` overlay lists these very
 * entries, and the key handlers are built from them (`keyHandler`, `useScreenShortcuts`) with one
 * handler per entry required by the types, so the overlay cannot drift from the real bindings.
 *
 * Keys use react-hotkeys-hook's notation: `mod` is Ctrl (⌘ on macOS), alternatives are separate
 * strings, and the overlay shows them as written (arrows as arrows).
 */
export interface Shortcut {
  /** Also the i18n key of its description: `shortcuts.<id>`. */
  id: Exclude<MessageName<'shortcuts'>, 'title' | 'where'>;
  keys: readonly string[];
  /** How the overlay shows the keys, where listing every alternative would be noise ("0–5"). */
  label?: string;
}

/** A set of shortcuts that work in one place: the whole screen, or one focused part of it. */
export interface ShortcutGroup {
  /** i18n key of the heading: `shortcuts.where.<where>`. */
  where: keyof Messages['shortcuts']['where'];
  shortcuts: readonly Shortcut[];
}

const group = <const S extends readonly Shortcut[]>(where: ShortcutGroup['where'], shortcuts: S) => ({
  where,
  shortcuts,
});

export const GLOBAL_SHORTCUTS = group('everywhere', [{ id: 'showShortcuts', keys: ['?'] }]);

/** Handled by shell/Modal for every dialog, listed so people know. */
export const DIALOG_KEYS = group('dialogs', [
  { id: 'dialogTab', keys: ['tab', 'shift+tab'] },
  { id: 'dialogClose', keys: ['escape'] },
]);

export const COMPOSE_SCREEN_SHORTCUTS = group('composeScreen', [
  { id: 'undo', keys: ['mod+z'] },
  { id: 'redo', keys: ['mod+shift+z', 'mod+y'] },
  { id: 'findReplace', keys: ['mod+h'] },
]);

/**
 * The grid's keys, spreadsheet style. Moving keys work on the cell cursor, and leave the key to the
 * field while a cell is being edited (its caret moves instead), except from a prompt's first or last
 * line up or down. Copy, cut and paste are the browser's clipboard events, taken by the grid: they
 * are listed here so the overlay shows them, and their handlers leave the key to the browser.
 */
export const PROMPT_GRID_SHORTCUTS = group('promptGrid', [
  { id: 'cellMove', keys: ['arrowup', 'arrowdown', 'arrowleft', 'arrowright'], label: '← → ↑ ↓' },
  {
    id: 'cellExtend',
    keys: ['shift+arrowup', 'shift+arrowdown', 'shift+arrowleft', 'shift+arrowright'],
    label: 'Shift + ← → ↑ ↓ / Shift+click',
  },
  { id: 'cellNext', keys: ['tab', 'shift+tab'] },
  { id: 'rowStartEnd', keys: ['home', 'end', 'mod+home', 'mod+end'] },
  { id: 'editCell', keys: ['enter', 'f2'] },
  { id: 'newLine', keys: ['alt+enter', 'shift+enter'] },
  { id: 'cancelEdit', keys: ['escape'] },
  { id: 'selectAllCells', keys: ['mod+a'] },
  { id: 'copyCells', keys: ['mod+c'] },
  { id: 'cutCells', keys: ['mod+x'] },
  { id: 'pasteCells', keys: ['mod+v'] },
  { id: 'fillDown', keys: ['mod+d'] },
  { id: 'clearCells', keys: ['delete', 'backspace'] },
  { id: 'sideEditor', keys: ['mod+e'] },
  { id: 'addRow', keys: ['mod+enter'] },
  { id: 'moveRow', keys: ['alt+arrowup', 'alt+arrowdown'] },
  { id: 'duplicateRow', keys: ['mod+shift+d'] },
  { id: 'removeRow', keys: ['mod+shift+delete', 'mod+shift+backspace'] },
]);

const STARS = ['0', '1', '2', '3', '4', '5'];

/** The marking keys, the same wherever images are marked; what they do is shared/marking-keys.ts. */
const MARKING_SHORTCUTS = [
  { id: 'pick', keys: ['p'] },
  { id: 'reject', keys: ['x'] },
  { id: 'unmark', keys: ['u'] },
  { id: 'stars', keys: STARS, label: '0–5' },
] as const;

export const GALLERY_SHORTCUTS = group('gallery', [
  { id: 'move', keys: ['arrowleft', 'arrowright', 'arrowup', 'arrowdown', 'home', 'end'] },
  {
    id: 'extend',
    keys: [
      'shift+arrowleft',
      'shift+arrowright',
      'shift+arrowup',
      'shift+arrowdown',
      'shift+home',
      'shift+end',
    ],
    label: 'Shift + ← → ↑ ↓ Home End',
  },
  { id: 'selectAll', keys: ['mod+a'] },
  { id: 'clearSelection', keys: ['escape'] },
  { id: 'openLightbox', keys: ['enter', ' '], label: 'Enter / Space' },
  ...MARKING_SHORTCUTS,
  { id: 'addToBoard', keys: ['b'] },
  { id: 'keepBest', keys: ['k'] },
  { id: 'openStack', keys: ['s'] },
  { id: 'survey', keys: ['n'] },
]);

/** The Library screen, wherever the focus is but a text field: sizes, and undo of marks. */
export const LIBRARY_SCREEN_SHORTCUTS = group('libraryScreen', [
  { id: 'thumbLarger', keys: ['mod+='] },
  { id: 'thumbSmaller', keys: ['mod+-'] },
  { id: 'thumbDefault', keys: ['mod+0'] },
  { id: 'undoMark', keys: ['mod+z'] },
  { id: 'redoMark', keys: ['mod+shift+z', 'mod+y'] },
]);

export const LIGHTBOX_SHORTCUTS = group('lightbox', [
  { id: 'previous', keys: ['arrowleft'] },
  { id: 'next', keys: ['arrowright'] },
  ...MARKING_SHORTCUTS,
  { id: 'keepBest', keys: ['k'] },
  { id: 'zoomIn', keys: ['+', '='] },
  { id: 'zoomOut', keys: ['-'] },
]);

/** The survey: the images side by side, one of them focused. */
export const SURVEY_SHORTCUTS = group('survey', [
  { id: 'surveyMove', keys: ['arrowleft', 'arrowright', 'arrowup', 'arrowdown'] },
  ...MARKING_SHORTCUTS,
  { id: 'surveyChoose', keys: ['enter', 'k'], label: 'Enter / K' },
  { id: 'surveyDrop', keys: ['delete', 'backspace'] },
]);

export const REALTIME_PROMPT_SHORTCUTS = group('realtimePrompt', [{ id: 'generate', keys: ['mod+enter'] }]);

export const KB_SEARCH_SHORTCUTS = group('kbSearch', [{ id: 'search', keys: ['enter'] }]);

/** What the `?` overlay lists on each screen. */
export const SCREEN_SHORTCUTS: Record<Screen, readonly ShortcutGroup[]> = {
  compose: [GLOBAL_SHORTCUTS, COMPOSE_SCREEN_SHORTCUTS, PROMPT_GRID_SHORTCUTS, DIALOG_KEYS],
  batches: [GLOBAL_SHORTCUTS, DIALOG_KEYS],
  library: [
    GLOBAL_SHORTCUTS,
    LIBRARY_SCREEN_SHORTCUTS,
    GALLERY_SHORTCUTS,
    LIGHTBOX_SHORTCUTS,
    SURVEY_SHORTCUTS,
    DIALOG_KEYS,
  ],
  realtime: [GLOBAL_SHORTCUTS, REALTIME_PROMPT_SHORTCUTS, DIALOG_KEYS],
  kb: [GLOBAL_SHORTCUTS, KB_SEARCH_SHORTCUTS, DIALOG_KEYS],
  settings: [GLOBAL_SHORTCUTS, DIALOG_KEYS],
};

const KEY_NAMES: Record<string, string> = {
  mod: 'Ctrl',
  shift: 'Shift',
  alt: 'Alt',
  arrowleft: '←',
  arrowright: '→',
  arrowup: '↑',
  arrowdown: '↓',
  enter: 'Enter',
  escape: 'Esc',
  tab: 'Tab',
  delete: 'Delete',
  backspace: 'Backspace',
  home: 'Home',
  end: 'End',
  f2: 'F2',
};

/** The keys of one shortcut as people read them: "Ctrl+Shift+Z / Ctrl+Y". */
export function keysLabel(shortcut: Shortcut): string {
  if (shortcut.label) return shortcut.label;
  return shortcut.keys
    .map((combo) =>
      combo
        .split('+')
        .map((part) => (part ? (KEY_NAMES[part] ?? part.toUpperCase()) : '+'))
        .join('+')
        // "+" alone splits into two empty parts.
        .replace(/^\+\+\+$/, '+'),
    )
    .join(' / ');
}

export type AnyKeyboardEvent = KeyboardEvent | ReactKeyboardEvent;

/** Whether a key event is exactly this combination (modifiers included, Shift ignored for symbols). */
export function matchesCombo(combo: string, e: AnyKeyboardEvent): boolean {
  const parts = combo === '+' ? ['+'] : combo.split('+');
  const key = parts[parts.length - 1]!;
  const wants = new Set(parts.slice(0, -1));
  const symbol = key.length === 1 && !/[a-z0-9]/.test(key);
  if (wants.has('mod') !== (e.ctrlKey || e.metaKey)) return false;
  if (wants.has('alt') !== e.altKey) return false;
  if (!symbol && wants.has('shift') !== e.shiftKey) return false;
  return e.key.toLowerCase() === key;
}

/** Runs the entry's handler; a handler returning false leaves the key to the browser. */
export type ShortcutHandlers<G extends { shortcuts: readonly Shortcut[] }> = Record<
  G['shortcuts'][number]['id'],
  (e: AnyKeyboardEvent) => boolean | void
>;

/**
 * A keydown handler for a focused part of a screen (the grid, the gallery, the lightbox), built from
 * its group: the first entry whose keys match runs, and the key is then taken from the browser.
 */
export function keyHandler<G extends { shortcuts: readonly Shortcut[] }>(
  shortcuts: G,
  handlers: ShortcutHandlers<G>,
): (e: AnyKeyboardEvent) => boolean {
  return (e) => {
    for (const shortcut of shortcuts.shortcuts) {
      if (!shortcut.keys.some((combo) => matchesCombo(combo, e))) continue;
      const run = handlers[shortcut.id as keyof typeof handlers];
      if (run(e) === false) continue;
      e.preventDefault();
      return true;
    }
    return false;
  };
}
