import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useImperativeHandle, useMemo, useRef, type ClipboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import type { DraftIssue } from '../../src-shared/draft-rules';
import { draftActions } from './draft-actions';
import { pastedLines, PromptRow } from './PromptRow';
import { useGridKeys, type GridColumn } from './use-grid-keys';

const ROW_HEIGHT = 84;

export interface PromptGridHandle {
  /** Scrolls the virtual grid to a row, focuses its prompt and keeps its messages in view. */
  focusRow(row: number): void;
}

interface GridProps {
  ref?: Ref<PromptGridHandle>;
  draft: Draft;
  issuesByRow: Map<number, DraftIssue[]>;
  change(update: (d: Draft) => Draft, key?: string): void;
  onFiles(files: File[], row?: number): void;
  onPickFiles(row?: number): void;
}

/**
 * The prompt grid: a spreadsheet of rows, virtualized so that the batch maximum stays fast.
 * Arrows move between rows (in a prompt, from its first or last line), Enter moves down,
 * Ctrl+Enter adds a row, Alt+arrows reorder, Ctrl+D duplicates, Ctrl+Shift+Delete removes.
 */
export function PromptGrid({ ref, draft, issuesByRow, change, onFiles, onPickFiles }: GridProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const references = useMemo(() => new Map(draft.references.map((r) => [r.id, r])), [draft.references]);
  const virtualizer = useVirtualizer({
    count: draft.items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });

  const focusCell = useCallback(
    (row: number, col: GridColumn) => {
      virtualizer.scrollToIndex(row, { align: 'auto' });
      const tryFocus = (attempt: number) => {
        const el = scroller.current?.querySelector<HTMLElement>(`[data-row="${row}"][data-col="${col}"]`);
        if (el) el.focus();
        else if (attempt < 5) requestAnimationFrame(() => tryFocus(attempt + 1));
      };
      // Focus moves at once when the cell is drawn: a key typed right after Ctrl+Enter belongs to
      // the new row, and waiting a frame let it land in the row before.
      tryFocus(0);
    },
    [virtualizer],
  );

  useImperativeHandle(
    ref,
    () => ({
      focusRow: (row: number) => {
        focusCell(row, 'prompt');
        // Once focused, the whole row (its messages too) is brought clear of the sticky totals bar.
        const reveal = (attempt: number) => {
          const el = scroller.current?.querySelector<HTMLElement>(`[data-drop-row="${row}"]`);
          if (el && el.contains(document.activeElement)) el.scrollIntoView({ block: 'nearest' });
          else if (attempt < 8) requestAnimationFrame(() => reveal(attempt + 1));
        };
        requestAnimationFrame(() => reveal(0));
      },
    }),
    [focusCell],
  );

  const onPasteLines = useCallback(
    (lines: string[], row: number) => {
      const current = draft.items[row];
      if (current && current.prompt.trim() === '') {
        change((d) =>
          draftActions.insertPrompts(
            row + 1,
            lines.slice(1),
          )(draftActions.setItem(row, { prompt: lines[0]! })(d)),
        );
      } else {
        change(draftActions.insertPrompts(row + 1, lines));
      }
    },
    [change, draft.items],
  );

  const onKeyDown = useGridKeys({ rows: draft.items.length, change, focusCell });

  const onNewRowPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (e.clipboardData.files.length) {
      e.preventDefault();
      onFiles([...e.clipboardData.files]);
      return;
    }
    const lines = pastedLines(e.clipboardData.getData('text/plain'));
    if (!lines) return;
    e.preventDefault();
    change(draftActions.insertPrompts(draft.items.length, lines));
  };

  return (
    <div className="prompt-grid" onKeyDown={onKeyDown}>
      <div
        role="table"
        aria-label={t('compose.gridLabel')}
        aria-rowcount={draft.items.length + 1}
        className="grid-table"
      >
        <div role="rowgroup">
          <div role="row" aria-rowindex={1} className="grid-row grid-head">
            <div role="columnheader" className="cell cell-index">
              {t('compose.colIndex')}
            </div>
            <div role="columnheader" className="cell cell-id">
              {t('compose.colId')}
            </div>
            <div role="columnheader" className="cell cell-prompt">
              {t('compose.colPrompt')}
            </div>
            <div role="columnheader" className="cell cell-count">
              {t('compose.colCount')}
            </div>
            <div role="columnheader" className="cell cell-refs">
              {t('compose.colRefs')}
            </div>
            <div role="columnheader" className="cell cell-actions">
              <span className="sr-only">{t('compose.colActions')}</span>
            </div>
          </div>
        </div>
        <div ref={scroller} className="grid-body" role="rowgroup" data-testid="grid-body">
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => (
              <div
                key={v.key}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: v.size,
                  transform: `translateY(${v.start}px)`,
                }}
              >
                <PromptRow
                  item={draft.items[v.index]!}
                  index={v.index}
                  issues={issuesByRow.get(v.index)}
                  references={references}
                  change={change}
                  onRowFiles={onFiles}
                  onPasteLines={onPasteLines}
                  onPickFiles={onPickFiles}
                />
              </div>
            ))}
          </div>
        </div>
      </div>
      <div className="grid-new-row">
        <textarea
          aria-label={t('compose.promptPlaceholder')}
          placeholder={t('compose.promptPlaceholder')}
          data-testid="new-row"
          rows={2}
          value=""
          onChange={(e) => {
            const text = e.target.value;
            if (!text) return;
            const at = draft.items.length;
            change(draftActions.insertPrompts(at, [text]), `prompt:${at}`);
            focusCell(at, 'prompt');
          }}
          onPaste={onNewRowPaste}
        />
      </div>
    </div>
  );
}
