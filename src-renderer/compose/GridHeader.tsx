import { useTranslation } from 'react-i18next';
import {
  COLUMN_DEFAULTS,
  MAX_WIDTH,
  MIN_WIDTH,
  useComposePrefs,
  type ResizableColumn,
} from './compose-prefs';

/**
 * A column's right edge, dragged to widen or narrow it (or moved by arrow keys when focused); a double
 * click gives the column its default width back. Widths are kept in the Compose preferences.
 */
function ColumnResizer({ column, label }: { column: ResizableColumn; label: string }) {
  const { t } = useTranslation();
  const width = useComposePrefs((s) => s.widths[column]);
  const setWidth = useComposePrefs((s) => s.setWidth);
  const current = (handle: HTMLElement) =>
    width ?? handle.parentElement?.getBoundingClientRect().width ?? COLUMN_DEFAULTS[column] ?? 200;
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={t('compose.resizeColumn', { column: label })}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={MAX_WIDTH}
      aria-valuenow={width ?? COLUMN_DEFAULTS[column] ?? MIN_WIDTH}
      // The prompt column, until given a width, takes the room left: its width is no fixed number.
      aria-valuetext={(width ?? COLUMN_DEFAULTS[column]) ? undefined : t('compose.columnFits')}
      tabIndex={0}
      className="col-resizer"
      data-testid={`resize-${column}`}
      onPointerDown={(e) => {
        e.preventDefault();
        const handle = e.currentTarget;
        const start = current(handle);
        const x0 = e.clientX;
        handle.setPointerCapture(e.pointerId);
        const move = (m: PointerEvent) => setWidth(column, start + m.clientX - x0);
        const up = () => {
          handle.removeEventListener('pointermove', move);
          handle.removeEventListener('pointerup', up);
        };
        handle.addEventListener('pointermove', move);
        handle.addEventListener('pointerup', up);
      }}
      onDoubleClick={() => setWidth(column, COLUMN_DEFAULTS[column])}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        e.preventDefault();
        setWidth(column, current(e.currentTarget) + (e.key === 'ArrowLeft' ? -16 : 16));
      }}
    />
  );
}

/** The grid's header row: outside the scrolling body, so it stays in view over any row. */
export function GridHeader() {
  const { t } = useTranslation();
  const column = (name: ResizableColumn, className: string, label: string) => (
    <div role="columnheader" className={`cell ${className}`}>
      <span className="col-title">{label}</span>
      <ColumnResizer column={name} label={label} />
    </div>
  );
  return (
    <div role="rowgroup" className="grid-head-group">
      <div role="row" aria-rowindex={1} className="grid-row grid-head">
        <div role="columnheader" className="cell cell-index">
          {t('compose.colIndex')}
        </div>
        {column('id', 'cell-id', t('compose.colId'))}
        {column('prompt', 'cell-prompt', t('compose.colPrompt'))}
        {column('count', 'cell-count', t('compose.colCount'))}
        {column('refs', 'cell-refs', t('compose.colRefs'))}
        <div role="columnheader" className="cell cell-actions">
          <span className="sr-only">{t('compose.colActions')}</span>
        </div>
      </div>
    </div>
  );
}
