import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KbCheckedRow, KbRow } from '../../src-shared/kb-view';

const ROW_HEIGHT = 72;

/** What is wrong with a row, in words, with its split offered where there is one. */
function RowVerdict({ row, onSplit }: { row: KbCheckedRow; onSplit(rows: KbRow[]): void }) {
  const { t } = useTranslation();
  const text =
    row.problem === 'empty'
      ? t('kb.emptyQuestion')
      : row.problem === 'both'
        ? t('kb.overBoth')
        : row.problem === 'question'
          ? t('kb.overQuestion', { count: row.split?.length ?? 0 })
          : row.problem === 'answer'
            ? t('kb.overAnswer', { count: row.split?.length ?? 0 })
            : undefined;
  return (
    <>
      {row.duplicate && <span className="error-text"> · {t('kb.duplicate')}</span>}
      {text && (
        <span className="error-text" data-testid="kb-row-problem">
          {' '}
          · {text}{' '}
          {row.split && (
            <button type="button" className="small" onClick={() => onSplit(row.split!)}>
              {t('kb.applySplit')}
            </button>
          )}
        </span>
      )}
    </>
  );
}

/**
 * Every row about to be uploaded (virtualized, so thousands stay quick), each over-limit or repeated
 * row saying why, and a filter down to the rows that need attention.
 */
export function KbPreview({
  checked,
  onSplit,
}: {
  checked: KbCheckedRow[];
  onSplit(index: number, rows: KbRow[]): void;
}) {
  const { t } = useTranslation();
  const [onlyFlagged, setOnlyFlagged] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const flagged = checked.filter((r) => r.over || r.duplicate).length;
  const shown = useMemo(
    () =>
      checked
        .map((row, index) => ({ row, index }))
        .filter(({ row }) => !onlyFlagged || row.over || row.duplicate),
    [checked, onlyFlagged],
  );
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    // Measured heights follow the row, not its place in the list: the filter moves rows around.
    getItemKey: (i) => shown[i]!.index,
    overscan: 8,
  });

  return (
    <>
      {flagged > 0 && (
        <label className="inline-field">
          <input
            type="checkbox"
            checked={onlyFlagged}
            onChange={(e) => setOnlyFlagged(e.target.checked)}
            data-testid="kb-only-flagged"
          />
          <span>{t('kb.onlyFlagged', { count: flagged })}</span>
        </label>
      )}
      <div className="kb-preview-head" aria-hidden="true">
        <span>{t('kb.question')}</span>
        <span>{t('kb.answer')}</span>
        <span>{t('kb.limit')}</span>
      </div>
      <div
        ref={scroller}
        className="kb-preview"
        role="list"
        aria-label={t('kb.previewLabel')}
        tabIndex={0}
        data-testid="kb-preview"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const { row, index } = shown[v.index]!;
            return (
              <div
                key={v.key}
                role="listitem"
                ref={virtualizer.measureElement}
                data-index={v.index}
                className={`kb-preview-row${row.over || row.duplicate ? ' row-flagged' : ''}`}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  transform: `translateY(${v.start}px)`,
                }}
                data-testid="kb-row"
              >
                <span className="kb-cell">{row.q.slice(0, 300)}</span>
                <span className="kb-cell">{row.a.slice(0, 300)}</span>
                <span>
                  {t('kb.tokens', { tokens: row.tokens, limit: row.limit })}
                  <RowVerdict row={row} onSplit={(rows) => onSplit(index, rows)} />
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
