import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import {
  contentTopAt,
  contentTopToShow,
  rowTop,
  rowsInView,
  scrollHeightOf,
  scrollTopFor,
  type RowLayout,
} from './scaled-scroll';

/** A place this hook scrolled to, for the list and row height it was worked out for. */
interface Written {
  scrollTop: number;
  contentTop: number;
  rows: number;
  rowHeight: number;
}

/** The place in the rows at a scroll position: exactly where this hook last put it, if it is still there. */
function placeAt(written: Written | null, scrollTop: number, l: RowLayout): number {
  const same =
    written &&
    written.rows === l.rows &&
    written.rowHeight === l.rowHeight &&
    Math.abs(written.scrollTop - scrollTop) < 1;
  return same ? written.contentTop : contentTopAt(scrollTop, l);
}

interface ScaledRowsOptions {
  scroller: RefObject<HTMLDivElement | null>;
  rows: number;
  rowHeight: number;
  /** Rows drawn beyond the visible ones on each side. */
  overscan: number;
  /** Quiet time after the last scroll event before scrolling counts as stopped (`onMotion`, `jumping`). */
  scrollingResetMs: number;
  /**
   * Told at the scroll event itself, before the rows it brings are drawn, so that they are drawn
   * knowing it: whether the element is scrolling, and whether its scroll bar is being dragged (a
   * person's jump of more than a screen while still scrolling, until scrolling stops). A single
   * jump (End, Home, a far place) is not a drag, nor is this hook's own scroll.
   */
  onMotion?(motion: { scrolling: boolean; dragging: boolean }): void;
}

/**
 * The gallery's rows of one height, windowed over a scroll range that stays within what Chromium
 * can lay out (scaled-scroll.ts): the rows to draw and where, the element's height, whether it is
 * jumping (its motion told through `onMotion`), and a way to bring a row into view. (A general
 * virtualizer assumes the scroll position is the place in the list, which stops being true once the
 * range is scaled.)
 */
export function useScaledRows({
  scroller,
  rows,
  rowHeight,
  overscan,
  scrollingResetMs,
  onMotion,
}: ScaledRowsOptions) {
  const [viewport, setViewport] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  /** Scrolling by jumps of more than a screen of rows (the scroll bar dragged), not by steps. */
  const [jumping, setJumping] = useState(false);
  const motion = useRef(onMotion);
  motion.current = onMotion;
  const current = useRef<RowLayout>({ rows, rowHeight, viewport: 0 });
  /**
   * The place this hook last scrolled to, and the scroll position that gave: a scaled place rounds
   * to a whole pixel of scroll, and reading it back must not move a row it just put in view.
   */
  const written = useRef<Written | null>(null);
  /** The element's scroll position as its last scroll event, or this hook's own scroll, left it. */
  const seenTop = useRef(0);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let quiet: ReturnType<typeof setTimeout> | undefined;
    let last = el.scrollTop;
    let dragging = false;
    const onScroll = () => {
      const l = { ...current.current, viewport: el.clientHeight };
      const jump = Math.abs(contentTopAt(el.scrollTop, l) - contentTopAt(last, l)) > l.viewport;
      // Where this hook's own scroll (scrollToRow, scrollToTop) put the element already.
      const own = el.scrollTop === seenTop.current;
      // A drag stays one until scrolling stops: its smaller steps among the jumps do not end it.
      dragging ||= jump && !own && quiet !== undefined;
      motion.current?.({ scrolling: true, dragging });
      setJumping(jump);
      last = el.scrollTop;
      seenTop.current = last;
      setScrollTop(last);
      clearTimeout(quiet);
      quiet = setTimeout(() => {
        quiet = undefined;
        dragging = false;
        motion.current?.({ scrolling: false, dragging: false });
        setJumping(false);
      }, scrollingResetMs);
    };
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    setViewport(el.clientHeight);
    seenTop.current = el.scrollTop;
    setScrollTop(seenTop.current);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      clearTimeout(quiet);
      // A grid gone in the middle of a scroll leaves no one waiting for its end.
      if (quiet !== undefined) motion.current?.({ scrolling: false, dragging: false });
      observer.disconnect();
      el.removeEventListener('scroll', onScroll);
    };
  }, [scroller, scrollingResetMs]);

  const layout: RowLayout = { rows, rowHeight, viewport };
  const contentTop = placeAt(written.current, scrollTop, layout);
  const { first, last } = rowsInView(contentTop, layout, overscan);
  const onScreen = rowsInView(contentTop, layout, 0);
  const items: { index: number; start: number }[] = [];
  for (let index = first; index <= last; index++)
    items.push({ index, start: rowTop(index, contentTop, scrollTop, layout) });

  current.current = layout;
  const scrollToRow = useCallback(
    (row: number) => {
      const el = scroller.current;
      if (!el) return;
      // The first row of a list at its top is in view already. Asking the element where it is lays
      // the page out, inside the task that draws a new list whose focus goes back to the first
      // image (a search's answer after culling: 5 to 16 ms of a 74 ms task at a million images).
      if (row === 0 && seenTop.current === 0) return;
      const l = { ...current.current, viewport: el.clientHeight };
      const target = contentTopToShow(row, placeAt(written.current, el.scrollTop, l), l);
      if (target === undefined) return;
      const top = scrollTopFor(target, l);
      el.scrollTo({ top, behavior: 'instant' });
      // Kept only when the element went where it was sent (it clamps at its ends).
      written.current =
        Math.abs(el.scrollTop - top) <= 1
          ? { scrollTop: el.scrollTop, contentTop: target, rows: l.rows, rowHeight: l.rowHeight }
          : null;
      seenTop.current = el.scrollTop;
      setScrollTop(seenTop.current);
    },
    [scroller],
  );

  /** Back to the top, drawn from there at once rather than at the scroll event's frame. */
  const scrollToTop = useCallback(() => {
    const el = scroller.current;
    if (!el || seenTop.current === 0) return;
    el.scrollTo({ top: 0, behavior: 'instant' });
    written.current = null;
    seenTop.current = 0;
    setScrollTop(0);
  }, [scroller]);

  return { items, onScreen, height: scrollHeightOf(layout), jumping, scrollToRow, scrollToTop };
}
