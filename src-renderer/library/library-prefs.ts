import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** Thumbnail sizes the slider and Ctrl+= / Ctrl+- move between, in CSS pixels. */
export const THUMB_MIN = 80;
export const THUMB_MAX = 400;
/** At 1280×800 with the boards shown, six columns by four whole rows. */
export const THUMB_DEFAULT = 128;
const STEP = 1.25;

interface LibraryPrefs {
  thumbSize: number;
  /** In the loupe, a mark moves on to the next image (Lightroom's auto-advance). */
  autoAdvance: boolean;
  filtersOpen: boolean;
  boardsOpen: boolean;
  setThumbSize(size: number): void;
  /** One step larger (+1) or smaller (-1), or back to the default (0). */
  stepThumbSize(direction: -1 | 0 | 1): void;
  toggle(key: 'autoAdvance' | 'filtersOpen' | 'boardsOpen'): void;
}

const clamp = (n: number) => Math.round(Math.min(THUMB_MAX, Math.max(THUMB_MIN, n)));

/** How the Library looks and behaves for this person: kept across reloads and restarts. */
export const useLibraryPrefs = create<LibraryPrefs>()(
  persist(
    (set) => ({
      thumbSize: THUMB_DEFAULT,
      autoAdvance: true,
      filtersOpen: true,
      boardsOpen: true,
      setThumbSize: (size) => set({ thumbSize: clamp(size) }),
      stepThumbSize: (direction) =>
        set((s) => ({
          thumbSize:
            direction === 0 ? THUMB_DEFAULT : clamp(direction > 0 ? s.thumbSize * STEP : s.thumbSize / STEP),
        })),
      toggle: (key) => set((s) => ({ [key]: !s[key] })),
    }),
    {
      name: 'studio.libraryPrefs',
      partialize: ({ thumbSize, autoAdvance, filtersOpen, boardsOpen }) => ({
        thumbSize,
        autoAdvance,
        filtersOpen,
        boardsOpen,
      }),
    },
  ),
);
