import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryImage } from '../../src-shared/library-view';
import { GalleryThumb } from './GalleryThumb';
import { useSelection } from './library-selection';

interface CellProps {
  item: LibraryImage;
  /** Place in the filtered list. */
  index: number;
  onClick(index: number, e: React.MouseEvent): void;
  onOpen(index: number): void;
  onDragStart(index: number, id: string, e: React.DragEvent): void;
}

/**
 * One image of the gallery. Memoized, and reading its own selected and focused state from the
 * selection store: a mark (a new `item` for this image only), a click or an arrow redraws only the
 * cells concerned, never the grid's other cells.
 */
export const LibraryCell = memo(function LibraryCell({
  item,
  index,
  onClick,
  onOpen,
  onDragStart,
}: CellProps) {
  const { t } = useTranslation();
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
      draggable
      onDragStart={(e) => onDragStart(index, item.id, e)}
      data-testid="library-cell"
      data-id={item.id}
      data-mark={item.mark ?? ''}
      data-stars={item.stars}
    >
      <GalleryThumb item={item} />
      <span className="lib-caption">{item.prompt}</span>
      <span className="lib-badges">
        {item.mark === 'picked' && <span className="badge accent">{t('library.picked')}</span>}
        {item.mark === 'rejected' && <span className="badge danger-badge">{t('library.rejected')}</span>}
        {item.mark === 'alternative' && <span className="badge">{t('run.alternative')}</span>}
        {item.stars > 0 && <span className="badge">{'★'.repeat(item.stars)}</span>}
      </span>
    </div>
  );
});

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
