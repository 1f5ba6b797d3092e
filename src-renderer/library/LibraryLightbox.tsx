import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { imagePaths } from '../../src-shared/image-paths';
import type { LibraryFilter, LibraryImage } from '../../src-shared/library-view';
import { imageUrl } from '../app/image-url';
import { Lightbox } from './Lightbox';
import { useLibraryItem, useLibraryWindows } from './library-hooks';
import type { ReuseHandlers } from './Lightbox';
import { itemIn, pageOf, pagesCovering, type MarkPatch } from './library-windows';
import { useFollowHold } from './library-follow';

/** Images the filmstrip shows on each side of the one in the loupe. */
const STRIP_SIDE = 7;

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
  onKeepBest(item: LibraryImage): void;
}

/**
 * The loupe over the windowed list: its image comes from the window it is in, fetched when next
 * or previous crosses into a window not loaded (the one after is asked for near the edge). While
 * it comes, the image before stays on screen. The images on either side are loaded ahead, and a
 * filmstrip of the list around it runs below.
 */
export function LibraryLightbox({ filter, total, index, ...rest }: Props) {
  const fetched = useLibraryItem(filter, index, true);
  const [last, setLast] = useState<LibraryImage | undefined>(fetched);
  // While the list is asked again after images arrived, the place may hold another image until
  // the loupe's own image's new place is known (library-follow.ts): the one shown stays, and keys
  // still mark it.
  const held = useFollowHold((s) => s.at === index);
  const item = held && last ? last : fetched;
  // Adjusting state while rendering: the newest image that arrived.
  if (item && item !== last) setLast(item);
  const from = Math.max(0, index - STRIP_SIDE);
  const to = Math.min(total - 1, index + STRIP_SIDE);
  const windows = useLibraryWindows(filter, to >= from ? pagesCovering(from, to) : []);
  const at = (i: number) => itemIn(windows.get(pageOf(i)), i);
  const shown = item ?? last;
  if (!shown) return null;
  // Three ahead (culling goes forward, faster than one image decodes) and one behind.
  const preload = [at(index + 1), at(index + 2), at(index + 3), at(index - 1)].filter(
    (x): x is LibraryImage => !!x,
  );
  return (
    <Lightbox item={shown} index={index} total={total} pending={!item} preload={preload} {...rest}>
      <Filmstrip from={from} to={to} index={index} at={at} onIndex={rest.onIndex} />
    </Lightbox>
  );
}

function Filmstrip({
  from,
  to,
  index,
  at,
  onIndex,
}: {
  from: number;
  to: number;
  index: number;
  at(i: number): LibraryImage | undefined;
  onIndex(i: number): void;
}) {
  const { t } = useTranslation();
  const places = Array.from({ length: Math.max(0, to - from + 1) }, (_, k) => from + k);
  return (
    <nav className="filmstrip" aria-label={t('library.filmstrip')} data-testid="filmstrip">
      {places.map((i) => {
        const image = at(i);
        return (
          <button
            key={i}
            type="button"
            tabIndex={-1}
            className={`filmstrip-cell${i === index ? ' current' : ''}${image?.mark ? ` mark-${image.mark}` : ''}`}
            aria-current={i === index ? 'true' : undefined}
            aria-label={image ? `${i + 1}: ${image.prompt}` : String(i + 1)}
            onClick={() => onIndex(i)}
            data-testid="filmstrip-cell"
          >
            {image && <img src={imageUrl(imagePaths.libraryThumb(image.id, 128))} alt="" draggable={false} />}
          </button>
        );
      })}
    </nav>
  );
}
