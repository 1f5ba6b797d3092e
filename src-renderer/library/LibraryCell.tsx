import type { TFunction } from 'i18next';
import { memo, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { create } from 'zustand';
import type { LibraryImage } from '../../src-shared/library-view';
import { GalleryThumb, useGalleryScrolling } from './GalleryThumb';
import { useSelection } from './library-selection';
import { StarRating } from './StarRating';
import { TeamBadges } from './TeamBadges';

interface CellProps {
  item: LibraryImage;
  /** Place in the filtered list. */
  index: number;
  onClick(index: number, e: React.MouseEvent): void;
  onOpen(index: number): void;
  onDragStart(index: number, id: string, e: React.DragEvent): void;
  /** The cell's side in CSS pixels: its thumbnail is made to cover it. */
  px: number;
  /** In a row on screen, not in the rows drawn beyond it: its thumbnail is asked for first. */
  onScreen: boolean;
  /**
   * The grid's translation, the same function until the language changes. Each cell asking its
   * own (useTranslation: options, namespaces and a subscription to the language, per cell) was a
   * good part of drawing a search's answer, 50 cells at a time.
   */
  t: TFunction;
}

/**
 * One image of the gallery. Memoized, and reading its own selected and focused state from the
 * selection store: a mark (a new `item` for this image only), a click or an arrow redraws only the
 * cells concerned, never the grid's other cells. Entering it only tells `useCellHover`, which the
 * star buttons alone read.
 */
export const LibraryCell = memo(function LibraryCell({
  item,
  index,
  onClick,
  onOpen,
  onDragStart,
  px,
  onScreen,
  t,
}: CellProps) {
  const selected = useSelection((s) => s.selected.has(item.id));
  const focused = useSelection((s) => s.focus === index);
  return (
    <div
      role="option"
      aria-selected={selected}
      id={`lib-${item.id}`}
      className={`lib-cell${selected ? ' selected' : ''}${focused ? ' focused' : ''}${item.mark ? ` mark-${item.mark}` : ''}`}
      onClick={(e) => onClick(index, e)}
      onDoubleClick={() => onOpen(index)}
      onMouseEnter={() => useCellHover.setState({ index })}
      draggable
      onDragStart={(e) => onDragStart(index, item.id, e)}
      data-testid="library-cell"
      data-id={item.id}
      data-index={index}
      data-mark={item.mark ?? ''}
      data-stars={item.stars}
    >
      <GalleryThumb item={item} px={px} onScreen={onScreen} />
      <span className="lib-caption">{item.prompt}</span>
      <span className="lib-badges">
        {item.mark === 'picked' && <span className="badge accent">{t('library.picked')}</span>}
        {item.mark === 'rejected' && <span className="badge danger-badge">{t('library.rejected')}</span>}
        {item.mark === 'alternative' && <span className="badge">{t('run.alternative')}</span>}
        {item.team && <TeamBadges team={item.team} />}
        {item.stack && (
          <span
            className="badge lib-stack-badge"
            data-testid="library-stack-badge"
            data-size={item.stack.size}
            data-level={item.stack.level}
          >
            {t(item.stack.level === 'similar' ? 'library.similarBadge' : 'library.stackBadge', {
              count: item.stack.size,
            })}
          </span>
        )}
        {item.stars > 0 && (
          <span className="badge lib-stars-badge" data-testid="library-stars-badge">
            {'★'.repeat(item.stars)}
          </span>
        )}
      </span>
    </div>
  );
});

/** The gallery place under the pointer (null once it leaves the gallery). */
export const useCellHover = create<{ index: number | null }>(() => ({ index: null }));

/**
 * Star buttons for one cell: the hovered one, else the focused one. One set for the whole gallery,
 * laid over that cell from outside the listbox: an option's content is presentational to
 * assistive technology, and a listbox may own only options, so buttons inside either would be
 * lost to it. Shown while the gallery is hovered or has the focus (CSS); after the gallery in the
 * tab order. Choosing the current rating again clears it, as in the lightbox.
 */
export function CellStars({
  itemAt,
  scroller,
  onStars,
}: {
  itemAt(index: number): LibraryImage | undefined;
  scroller: RefObject<HTMLDivElement | null>;
  onStars(id: string, stars: number): void;
}) {
  const hovered = useCellHover((s) => s.index);
  const focus = useSelection((s) => s.focus);
  const item = itemAt(hovered ?? focus);
  const [place, setPlace] = useState<{ top: number; right: number } | null>(null);
  const id = item?.id;

  // Over its cell's top right corner; hidden while the gallery scrolls. Measured when its cell
  // changes, when scrolling stops, or as the gallery is entered: measuring at every render of the
  // grid, and at every scroll event, forced a layout in the middle of each frame that drew new
  // rows (a scroll step, a search's answer). Nothing is measured while the buttons are hidden
  // anyway (the gallery neither hovered nor focused: CSS).
  const scrolling = useGalleryScrolling((s) => s.scrolling);
  const follow = useRef(() => {});
  follow.current = () => {
    const gallery = scroller.current;
    const frame = gallery?.parentElement;
    const cell = id ? document.getElementById(`lib-${id}`) : null;
    let next: { top: number; right: number } | null = null;
    if (
      gallery &&
      frame &&
      cell &&
      !useGalleryScrolling.getState().scrolling &&
      frame.matches(':hover, :focus-within')
    ) {
      const g = gallery.getBoundingClientRect();
      const f = frame.getBoundingClientRect();
      const c = cell.getBoundingClientRect();
      if (c.top >= g.top && c.top < g.bottom - 24) next = { top: c.top - f.top, right: f.right - c.right };
    }
    setPlace((was) => (was?.top === next?.top && was?.right === next?.right ? was : next));
  };
  useLayoutEffect(() => follow.current(), [id, item, scrolling]);
  useEffect(() => {
    const frame = scroller.current?.parentElement;
    const now = () => follow.current();
    frame?.addEventListener('focusin', now);
    frame?.addEventListener('mouseenter', now);
    return () => {
      frame?.removeEventListener('focusin', now);
      frame?.removeEventListener('mouseenter', now);
    };
  }, [scroller]);

  if (!item || !place) return null;
  return (
    <StarRating
      value={item.stars}
      onChange={(stars) => onStars(item.id, stars)}
      inGallery={{ prompt: item.prompt }}
      className="lib-cell-stars"
      style={{ top: place.top, right: place.right }}
      testId="library-cell-stars"
      dataId={item.id}
    />
  );
}

/** A place whose window has not arrived yet: the same size, so the grid does not jump when it does. */
export const PendingCell = memo(function PendingCell({ index }: { index: number }) {
  const focused = useSelection((s) => s.focus === index);
  return (
    <div
      className={`lib-cell lib-cell-pending${focused ? ' focused' : ''}`}
      aria-hidden="true"
      data-testid="library-cell-pending"
    />
  );
});
