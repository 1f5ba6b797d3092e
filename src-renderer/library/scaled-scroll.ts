/**
 * Chromium lays out no element taller than 33,554,430 px: a million images at four a row of 205 px
 * need 51 million, and a grid that tall would stop a third of the way down, its oldest images out of
 * reach. So the gallery's scroll range is capped below that, and when the rows are taller than the
 * cap each pixel scrolled moves further through them (1.6 px at that million): the scrollbar, End
 * and a drag to the bottom reach the last row, and a wheel step moves a little more than usual.
 */
export const MAX_SCROLL_HEIGHT = 32_000_000;

/** Rows of one height, in a scrolling box `viewport` pixels high. */
export interface RowLayout {
  rows: number;
  rowHeight: number;
  viewport: number;
  /** The cap on the scroll range (tests pass a small one). */
  maxHeight?: number;
}

/** How tall all the rows are: what the scroll range stands for. */
const contentHeight = (l: RowLayout) => l.rows * l.rowHeight;

/** The height of the scrolled element: the rows' own height, or the cap. */
export function scrollHeightOf(l: RowLayout): number {
  return Math.min(contentHeight(l), l.maxHeight ?? MAX_SCROLL_HEIGHT);
}

/** Pixels of rows per pixel scrolled: 1 unless the rows are taller than the cap. */
export function scaleOf(l: RowLayout): number {
  const content = contentHeight(l);
  const height = scrollHeightOf(l);
  if (content <= height) return 1;
  // The last scroll position shows the last rows: the ranges of both are matched, not the heights.
  return (content - l.viewport) / Math.max(1, height - l.viewport);
}

/** Where in the rows the top of the box is, for a scroll position. */
export const contentTopAt = (scrollTop: number, l: RowLayout) => scrollTop * scaleOf(l);

/** The scroll position that puts a place in the rows at the top of the box. */
export const scrollTopFor = (contentTop: number, l: RowLayout) => contentTop / scaleOf(l);

/** The rows in view at a place, and `overscan` more each side, within the list. */
export function rowsInView(
  contentTop: number,
  l: RowLayout,
  overscan: number,
): { first: number; last: number } {
  if (!l.rows || l.rowHeight <= 0) return { first: 0, last: -1 };
  const first = Math.max(0, Math.floor(contentTop / l.rowHeight) - overscan);
  const last = Math.min(
    l.rows - 1,
    Math.floor((contentTop + Math.max(0, l.viewport - 1)) / l.rowHeight) + overscan,
  );
  return { first, last };
}

/**
 * Where a row is drawn in the scrolled element: as far below the box's top as it is below the
 * place in the rows the box shows. Unscaled, that is simply `row × rowHeight`.
 */
export const rowTop = (row: number, contentTop: number, scrollTop: number, l: RowLayout) =>
  scrollTop + row * l.rowHeight - contentTop;

/**
 * The place in the rows that brings a row into view with the least movement (its top at the top,
 * or its bottom at the bottom), or undefined when it is in view already.
 */
export function contentTopToShow(row: number, contentTop: number, l: RowLayout): number | undefined {
  const top = row * l.rowHeight;
  const bottom = top + l.rowHeight;
  if (top >= contentTop && bottom <= contentTop + l.viewport) return undefined;
  const wanted = top < contentTop ? top : bottom - l.viewport;
  return Math.max(0, Math.min(wanted, contentHeight(l) - l.viewport));
}
