import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryFilter, LibraryImage } from '../../src-shared/library-view';
import type { StudioError } from '../../src-shared/studio-error';
import { useStudio } from '../app/studio-context';
import { useGalleryScrolling } from './GalleryThumb';
import { CellStars, LibraryCell, PendingCell, useCellHover } from './LibraryCell';
import { useLibraryWindows } from './library-hooks';
import { useSelection } from './library-selection';
import { itemIn, pageOf, pagesCovering, type MarkPatch } from './library-windows';
import { useLibraryPrefs } from './library-prefs';
import { useLibraryContextMenu } from './library-context-menu';
import { useGalleryInput } from './use-gallery-input';
import { useScaledRows } from './use-scaled-rows';

/**
 * Rows are keyed by their slot (index modulo this, more than are ever drawn at once), not by their
 * index: a jump of the scroll bar moves the drawn rows and their placeholders to new places
 * instead of taking every element out of the page and making new ones.
 */
const ROW_SLOTS = 256;

/** Space between cells, and around the rows, in CSS pixels (as .lib-row has it). */
const GAP = 4;
/**
 * Rows drawn, and windows asked for, beyond the visible ones on each side. One: at the default size
 * a row holds ten cells, and three rows each side doubled the scroll's p95 frame (33 ms against 17).
 */
const OVERSCAN_ROWS = 1;

/** Whether the gallery scrolls, told to its thumbnails at the scroll event, before its rows are drawn. */
const tellThumbnails = (motion: { scrolling: boolean; dragging: boolean }) =>
  useGalleryScrolling.setState(motion);

interface GridProps {
  /** The list shown, and its length. */
  filter: LibraryFilter;
  total: number;
  onMark(ids: string[], change: MarkPatch): void;
  onOpen(index: number): void;
  onError(error: StudioError): void;
  onAddToBoard(): void;
  /** K and S on an image: keep it and reject the rest of its stack; open its stack in place. */
  onStack(action: 'keepBest' | 'open', item: LibraryImage): void;
  /** The scrolling listbox, which the page gives focus back to. */
  scroller: RefObject<HTMLDivElement | null>;
}

/**
 * The virtual gallery: rows of cells for what is on screen plus overscan, over the windows of the
 * list that cover them; a place whose window has not arrived shows a placeholder of the same size.
 */
export function LibraryGrid({
  filter,
  total,
  onMark,
  onOpen,
  onError,
  onAddToBoard,
  onStack,
  scroller,
}: GridProps) {
  const { t } = useTranslation();
  const studio = useStudio();
  const client = useQueryClient();
  const [width, setWidth] = useState(1000);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, [scroller]);

  // As many columns as the chosen size allows, and the cells stretched to fill the width exactly.
  const chosen = useLibraryPrefs((s) => s.thumbSize);
  const inner = Math.max(1, width - GAP * 2);
  const columns = Math.max(1, Math.floor((inner + GAP) / (chosen + GAP)));
  const cell = Math.floor((inner - GAP * (columns - 1)) / columns);
  const rowHeight = cell + GAP;
  // Rows of one height over a scroll range Chromium can lay out (a million images need more).
  const {
    items: rows,
    onScreen,
    height,
    jumping,
    scrollToRow,
    scrollToTop,
  } = useScaledRows({
    scroller,
    rows: Math.ceil(total / columns),
    rowHeight,
    overscan: OVERSCAN_ROWS,
    // Thumbnails not yet seen load once scrolling pauses this long (see GalleryThumb).
    scrollingResetMs: 60,
    onMotion: tellThumbnails,
  });
  const first = (rows[0]?.index ?? 0) * columns;
  const last = Math.min(total - 1, ((rows[rows.length - 1]?.index ?? -1) + 1) * columns - 1);
  const pages = last >= first ? pagesCovering(first, last) : [];
  const windows = useLibraryWindows(filter, pages, !jumping);

  // Another list starts at its top; new data for the same list (a folder arrived) keeps the place.
  // Not asked where the gallery is at its top already (as after typing a search): scrolling lays
  // the page out at once, in the task that shows the new list (12 to 23 ms at a million images).
  useLayoutEffect(() => scrollToTop(), [filter, scrollToTop]);

  // The focused cell is kept in view, whether keys, a click or the lightbox moved it.
  // Only a move of the focus scrolls: new data (a folder arrived) leaves the gallery where it is.
  const focus = useSelection((s) => s.focus);
  const layout = useRef({ columns, total });
  layout.current = { columns, total };
  // Also once the list's length is known: a reload comes back to the image it was on.
  const known = total > focus;
  useEffect(() => {
    const { columns, total } = layout.current;
    if (focus < total) scrollToRow(Math.floor(focus / columns));
  }, [focus, scrollToRow, known, columns]);
  const focused = itemIn(windows.get(pageOf(focus)), focus);

  const { onKeyDown, onCellClick, onCellOpen, onCellDragStart, onCellStars } = useGalleryInput({
    source: { studio, client, filter, total },
    columns,
    onMark,
    onOpen,
    onError,
    onAddToBoard,
    onStack: (action, index) => {
      const item = itemIn(windows.get(pageOf(index)), index);
      if (item?.stack) onStack(action, item);
    },
  });

  return (
    <div className="lib-gallery-frame" onMouseLeave={() => useCellHover.setState({ index: null })}>
      <div
        ref={scroller}
        className="lib-gallery"
        role="listbox"
        aria-multiselectable="true"
        aria-label={t('library.galleryLabel')}
        aria-activedescendant={focused ? `lib-${focused.id}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onContextMenu={(e) => {
          // The image under the pointer becomes the target (unless it is in the selection already).
          const cell = (e.target as HTMLElement).closest<HTMLElement>('[data-testid="library-cell"]');
          if (!cell) return;
          e.preventDefault();
          const id = cell.dataset.id!;
          const index = Number(cell.dataset.index);
          if (!useSelection.getState().selected.has(id)) onCellClick(index, e);
          useLibraryContextMenu.setState({ at: { x: e.clientX, y: e.clientY } });
        }}
        data-testid="library-gallery"
        data-columns={columns}
        style={{ '--cell': `${cell}px` } as React.CSSProperties}
      >
        <div style={{ height, position: 'relative' }}>
          {rows.map((row, place) => (
            <div
              // While the scroll bar is dragged every row drawn is a new one, placeholders mostly:
              // keyed by their place on screen, the same elements are moved and renumbered, not
              // taken out of the page and made again at every frame of the drag.
              key={jumping ? `jump-${place}` : row.index % ROW_SLOTS}
              className="lib-row"
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: rowHeight,
                transform: `translateY(${row.start}px)`,
              }}
            >
              {Array.from({ length: Math.min(columns, total - row.index * columns) }, (_, c) => {
                const index = row.index * columns + c;
                const item = itemIn(windows.get(pageOf(index)), index);
                // Keyed by column: another list in the same places (a search's answer) changes the
                // cells' contents in place rather than taking them out and making them again, in
                // the one task that shows it (each cell's thumbnail is still new: GalleryThumb).
                return item ? (
                  <LibraryCell
                    key={c}
                    item={item}
                    index={index}
                    onClick={onCellClick}
                    onOpen={onCellOpen}
                    onDragStart={onCellDragStart}
                    px={cell}
                    onScreen={row.index >= onScreen.first && row.index <= onScreen.last}
                    t={t}
                  />
                ) : (
                  <PendingCell key={`pending-${c}`} index={index} />
                );
              })}
            </div>
          ))}
        </div>
      </div>
      <CellStars
        itemAt={(index) => itemIn(windows.get(pageOf(index)), index)}
        scroller={scroller}
        onStars={onCellStars}
      />
    </div>
  );
}
