import { useState } from 'react';
import type { LibraryFilter, LibraryImage } from '../../src-shared/library-view';
import { Lightbox } from './Lightbox';
import { useLibraryItem } from './library-hooks';
import type { ReuseHandlers } from './Lightbox';
import type { MarkPatch } from './library-windows';

interface Props {
  filter: LibraryFilter;
  total: number;
  index: number;
  onIndex(index: number): void;
  onClose(): void;
  onMark(ids: string[], change: MarkPatch): void;
  onUsePrompt(prompt: string): void;
  reuse: ReuseHandlers;
  onOpenImage(item: LibraryImage): void;
}

/**
 * The lightbox over the windowed list: its image comes from the window it is in, fetched when next
 * or previous crosses into a window not loaded (the one after is asked for near the edge). While
 * it comes, the image before stays on screen.
 */
export function LibraryLightbox({ filter, total, index, ...rest }: Props) {
  const item = useLibraryItem(filter, index, true);
  const [last, setLast] = useState<LibraryImage | undefined>(item);
  // Adjusting state while rendering: the newest image that arrived.
  if (item && item !== last) setLast(item);
  const shown = item ?? last;
  if (!shown) return null;
  return <Lightbox item={shown} index={index} total={total} pending={!item} {...rest} />;
}
