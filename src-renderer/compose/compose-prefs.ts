import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** The grid's columns a person can widen or narrow, in CSS pixels. */
export type ResizableColumn = 'id' | 'prompt' | 'count' | 'refs';

export const COLUMN_DEFAULTS: Record<ResizableColumn, number | undefined> = {
  id: 120,
  // The prompt takes the room the others leave until it is given a width of its own.
  prompt: undefined,
  count: 64,
  refs: 150,
};
export const MIN_WIDTH = 48;
export const MAX_WIDTH = 1600;

interface ComposePrefs {
  /** The panels above the grid, folded to one line each or open. */
  sharedRefsOpen: boolean;
  kbOpen: boolean;
  widths: Partial<Record<ResizableColumn, number>>;
  toggle(key: 'sharedRefsOpen' | 'kbOpen'): void;
  setWidth(column: ResizableColumn, width: number | undefined): void;
}

/** How Compose is laid out for this person: kept across reloads and restarts. */
export const useComposePrefs = create<ComposePrefs>()(
  persist(
    (set) => ({
      sharedRefsOpen: true,
      kbOpen: false,
      widths: {},
      toggle: (key) => set((s) => ({ [key]: !s[key] })),
      setWidth: (column, width) =>
        set((s) => ({
          widths: {
            ...s.widths,
            [column]:
              width === undefined ? undefined : Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width))),
          },
        })),
    }),
    {
      name: 'studio.composePrefs',
      partialize: ({ sharedRefsOpen, kbOpen, widths }) => ({ sharedRefsOpen, kbOpen, widths }),
    },
  ),
);

/** The grid's column template, the same for the header and every row. */
export function gridTemplate(widths: ComposePrefs['widths']): string {
  const w = (c: ResizableColumn) => widths[c] ?? COLUMN_DEFAULTS[c];
  const prompt = w('prompt');
  return [
    '40px',
    `${w('id')}px`,
    prompt ? `${prompt}px` : 'minmax(160px, 1fr)',
    `${w('count')}px`,
    `${w('refs')}px`,
    prompt ? 'minmax(136px, 1fr)' : '136px',
  ].join(' ');
}
