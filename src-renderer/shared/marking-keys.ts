import type { AnyKeyboardEvent } from '../shell/shortcuts';

/** A change of one or more images' review: a mark, stars, or both. */
export interface MarkChange {
  mark?: 'picked' | 'rejected' | null;
  stars?: number;
}

/**
 * What the marking keys do, once for every place that marks (the gallery, the lightbox, the survey,
 * compare across models): P picks, X rejects, U clears the mark and the stars, 0–5 set the stars.
 * The keys themselves are declared in shell/shortcuts.ts (MARKING_SHORTCUTS), which the `?` overlay
 * lists. `apply` marks whatever the place marks (the selection, the focused image); returning false
 * leaves the key to the browser.
 */
export function markingKeys(apply: (change: MarkChange) => boolean | void) {
  return {
    pick: () => apply({ mark: 'picked' }),
    reject: () => apply({ mark: 'rejected' }),
    unmark: () => apply({ mark: null, stars: 0 }),
    stars: (e: AnyKeyboardEvent) => apply({ stars: Number(e.key) }),
  };
}
