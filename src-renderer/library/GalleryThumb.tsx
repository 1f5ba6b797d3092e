import { create } from 'zustand';
import type { LibraryImage } from '../../src-shared/library-view';
import { imagePaths } from '../../src-shared/image-paths';
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
 * A gallery cell's thumbnail by URL: the whole image (not a square crop), 256 px, or 640 px on dense
 * screens. While the gallery is scrolling, cells not seen before wait with a placeholder, so a fast
 * scroll through thousands of images does not make thousands of thumbnails on the way.
 */
export function GalleryThumb({ item }: { item: LibraryImage }) {
  const waiting = useGalleryScrolling((s) => s.scrolling && !loaded.has(item.id));
  if (waiting) return <span className="thumb-placeholder" />;
  return (
    <img
      src={imageUrl(imagePaths.libraryThumb(item.id, 256))}
      srcSet={`${imageUrl(imagePaths.libraryThumb(item.id, 640))} 2x`}
      alt={item.prompt}
      loading="lazy"
      decoding="async"
      draggable={false}
      onLoad={() => remember(item.id)}
    />
  );
}
