import { create } from 'zustand';
import type { LibraryImage } from '../../src-shared/library-view';
import { imagePaths, thumbSizeFor } from '../../src-shared/image-paths';
import { imageUrl } from '../app/image-url';

/** Ids whose thumbnail the browser already holds (its cache answers at once); only ids, and capped. */
const loaded = new Set<string>();
const MAX_REMEMBERED = 5_000;

function remember(id: string): void {
  loaded.add(id);
  if (loaded.size > MAX_REMEMBERED) loaded.delete(loaded.values().next().value!);
}

/**
 * Whether the gallery is scrolling, and whether its scroll bar is being dragged (use-scaled-rows.ts),
 * set by the grid at each scroll event. Thumbnails listen to it, each to whether it waits (and the
 * star buttons, to hide): a scroll starting or stopping redraws the cells that change, not every cell.
 */
export const useGalleryScrolling = create<{ scrolling: boolean; dragging: boolean }>(() => ({
  scrolling: false,
  dragging: false,
}));

/**
 * A gallery cell's thumbnail: the whole image (not a square crop), made at the size the cell is
 * drawn at on this screen. While the gallery is scrolling, cells not seen before wait with a
 * placeholder, so a fast scroll through thousands of images asks for none of those it passes.
 * While its scroll bar is dragged, seen ones wait too: each step brings a screen of new cells, and
 * laying out and decoding a screen of pictures at every step made one frame in six miss its turn,
 * twice as long as the others, at 10,000 images (issue 36). Scrolling by steps, or by one jump
 * (End, Home, a far place), seen ones show at once.
 */
export function GalleryThumb({ item, px, onScreen }: { item: LibraryImage; px: number; onScreen: boolean }) {
  const waiting = useGalleryScrolling((s) => s.scrolling && (s.dragging || !loaded.has(item.id)));
  if (waiting) return <span className="thumb-placeholder" />;
  // Keyed by the image: a cell showing another image gets a new <img>, never the last one's picture
  // until the new one loads.
  return <LoadedThumb key={item.id} item={item} px={px} onScreen={onScreen} />;
}

/**
 * An <img> taken out of the page keeps its request in Chromium: a cell that leaves the screen clears
 * its source first, so the request is cancelled (and main drops the queued thumbnail with the
 * request's signal) instead of delaying the cells now on screen. One function for every cell: a
 * ref that changed on each render would run this on each render.
 */
const cancelWhenGone = (el: HTMLImageElement | null) => () => {
  if (el && !el.complete) el.src = '';
};

/**
 * The thumbnails of the rows on screen are asked for at high priority, in the gallery's order (top
 * row first). Asked for at the default (low) priority, Chromium raised the ones it found on screen
 * after layout one by one, in no particular order, and each raised request went to the back of
 * its new queue: a cold open's top row waited behind cells three rows down (the browser sends six
 * requests to a host at a time, and the studio makes thumbnails in the order asked).
 */
function LoadedThumb({ item, px, onScreen }: { item: LibraryImage; px: number; onScreen: boolean }) {
  const size = thumbSizeFor(px * (window.devicePixelRatio || 1));
  const path = imagePaths.libraryThumb(item.id, size);
  return (
    <img
      src={imageUrl(path)}
      alt={item.prompt}
      fetchPriority={onScreen ? 'high' : 'low'}
      decoding="async"
      draggable={false}
      onLoad={() => remember(item.id)}
      data-src={path}
      ref={cancelWhenGone}
    />
  );
}
