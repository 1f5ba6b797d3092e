import { describe, expect, it } from 'vitest';
import {
  contentTopAt,
  contentTopToShow,
  MAX_SCROLL_HEIGHT,
  rowTop,
  rowsInView,
  scaleOf,
  scrollHeightOf,
  scrollTopFor,
  type RowLayout,
} from '../library/scaled-scroll';

/** Chromium's limit on an element's height. */
const CHROMIUM_MAX = 33_554_430;
/** A million images, four a row of 205 px, in a gallery 800 px high: 51.25 million px of rows. */
const million: RowLayout = { rows: 250_000, rowHeight: 205, viewport: 800 };

describe('the gallery scroll range', () => {
  it('leaves a list that fits as it is', () => {
    const small: RowLayout = { rows: 25_000, rowHeight: 205, viewport: 800 };
    expect(scrollHeightOf(small)).toBe(25_000 * 205);
    expect(scaleOf(small)).toBe(1);
    expect(rowTop(1234, contentTopAt(9999, small), 9999, small)).toBe(1234 * 205);
  });

  it('keeps a million images within what Chromium lays out, and the last row at the bottom', () => {
    const height = scrollHeightOf(million);
    expect(height).toBeLessThanOrEqual(MAX_SCROLL_HEIGHT);
    expect(height).toBeLessThan(CHROMIUM_MAX);
    const bottom = height - million.viewport;
    const place = contentTopAt(bottom, million);
    const { last } = rowsInView(place, million, 0);
    expect(last).toBe(million.rows - 1);
    // Drawn flush with the element's end: inside it, and the last thing in it.
    expect(rowTop(last, place, bottom, million) + million.rowHeight).toBeCloseTo(height, 6);
    // The top is the first row, drawn at 0.
    expect(rowsInView(contentTopAt(0, million), million, 0).first).toBe(0);
    expect(rowTop(0, 0, 0, million)).toBe(0);
  });

  it('brings any row into view, the oldest included, with a whole-pixel scroll position', () => {
    const maxScroll = scrollHeightOf(million) - million.viewport;
    for (const row of [0, 1, 77_777, 163_840, 200_001, million.rows - 2, million.rows - 1]) {
      // Coming from the other end of the list.
      const from = row < million.rows / 2 ? million.rows * million.rowHeight - million.viewport : 0;
      const scrollTop = Math.round(scrollTopFor(contentTopToShow(row, from, million)!, million));
      expect(scrollTop).toBeLessThanOrEqual(maxScroll);
      // The browser's whole pixel moves the rows by less than one scale step: the row stays in view.
      const place = contentTopAt(scrollTop, million);
      const { first, last } = rowsInView(place, million, 0);
      expect(row).toBeGreaterThanOrEqual(first);
      expect(row).toBeLessThanOrEqual(last);
      const top = rowTop(row, place, scrollTop, million) - scrollTop;
      expect(top).toBeGreaterThan(-scaleOf(million));
      expect(top + million.rowHeight).toBeLessThan(million.viewport + scaleOf(million));
    }
    // End: the last row brought into view is the bottom of the range.
    expect(scrollTopFor(contentTopToShow(million.rows - 1, 0, million)!, million)).toBeCloseTo(maxScroll, 6);
  });

  it('skips no row while scrolling pixel by pixel', () => {
    // A small cap makes the same scaling cheap to walk end to end.
    const layout: RowLayout = { rows: 10_000, rowHeight: 120, viewport: 600, maxHeight: 300_000 };
    expect(scaleOf(layout)).toBeGreaterThan(3);
    let seenUpTo = -1;
    let skipped = 0;
    for (let top = 0; top <= scrollHeightOf(layout) - layout.viewport; top++) {
      const { first, last } = rowsInView(contentTopAt(top, layout), layout, 0);
      if (first > seenUpTo + 1) skipped++;
      seenUpTo = Math.max(seenUpTo, last);
    }
    expect(skipped).toBe(0);
    expect(seenUpTo).toBe(layout.rows - 1);
  });

  it('does not move a row already in view', () => {
    expect(contentTopToShow(10, 10 * 205 - 100, million)).toBeUndefined();
    // Above the view: its top at the top; below: its bottom at the bottom.
    expect(contentTopToShow(10, 11 * 205, million)).toBe(10 * 205);
    expect(contentTopToShow(20, 0, million)).toBe(21 * 205 - 800);
  });
});
