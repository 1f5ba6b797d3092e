import { useEffect, useState } from 'react';
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
 * Whether the gallery is scrolling, set by the grid. Only thumbnails still waiting listen to it, so
 * a scroll starting or stopping redraws those, not every cell.
 */
export const useGalleryScrolling = create<{ scrolling: boolean }>(() => ({ scrolling: false }));

/**
 * An image fetched for as long as its cell is on screen: an `<img>` taken out of the page keeps its
 * request in Chromium, so after a fling hundreds of thumbnails passed on the way would still be
 * made before the last screen's. A fetch is aborted when the cell goes, and main drops the queued
 * work with it (the image route's signal). The HTTP cache still answers a thumbnail seen before.
 */
function useAbortableImage(url: string): string | undefined {
  const [src, setSrc] = useState<{ url: string; blob: string }>();
  useEffect(() => {
    const abort = new AbortController();
    let blob: string | undefined;
    fetch(url, { signal: abort.signal, credentials: 'same-origin' })
      .then((res) => (res.ok ? res.blob() : undefined))
      .then((data) => {
        if (!data || abort.signal.aborted) return;
        blob = URL.createObjectURL(data);
        setSrc({ url, blob });
      })
      // Aborted (the cell left the screen) or refused: the placeholder stays, nothing to report.
      .catch(() => undefined);
    return () => {
      abort.abort();
      if (blob) URL.revokeObjectURL(blob);
    };
  }, [url]);
  return src?.url === url ? src.blob : undefined;
}

/**
 * A gallery cell's thumbnail: the whole image (not a square crop), made at the size the cell is
 * drawn at on this screen. While the gallery is scrolling, cells not seen before wait with a
 * placeholder, so a fast scroll through thousands of images asks for none of those it passes.
 */
export function GalleryThumb({ item, px }: { item: LibraryImage; px: number }) {
  const waiting = useGalleryScrolling((s) => s.scrolling && !loaded.has(item.id));
  if (waiting) return <span className="thumb-placeholder" />;
  return <LoadedThumb item={item} px={px} />;
}

function LoadedThumb({ item, px }: { item: LibraryImage; px: number }) {
  const size = thumbSizeFor(px * (window.devicePixelRatio || 1));
  const path = imagePaths.libraryThumb(item.id, size);
  const src = useAbortableImage(imageUrl(path));
  if (!src) return <span className="thumb-placeholder" />;
  return (
    <img
      src={src}
      alt={item.prompt}
      decoding="async"
      draggable={false}
      onLoad={() => remember(item.id)}
      data-src={path}
    />
  );
}
