import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft, DraftItem, ReferenceImage } from '../../src-shared/draft';
import type { DraftIssue } from '../../src-shared/draft-rules';
import { keyHandler, PROMPT_GRID_SHORTCUTS } from '../shell/shortcuts';
import { draftActions } from './draft-actions';
import { ReferenceThumb } from './ReferenceThumb';

const ROW_HEIGHT = 84;
type Column = 'id' | 'prompt' | 'count';
const COLUMNS: Column[] = ['id', 'prompt', 'count'];

/** Pasted text with several lines makes several rows; one line stays in the cell. */
export function pastedLines(text: string): string[] | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length > 1 ? lines : undefined;
}

interface RowProps {
  item: DraftItem;
  index: number;
  issues: DraftIssue[] | undefined;
  references: Map<string, ReferenceImage>;
  change(update: (d: Draft) => Draft, key?: string): void;
  onRowFiles(files: File[], row: number): void;
  onPasteLines(lines: string[], row: number): void;
  onPickFiles(row: number): void;
}

const Row = memo(function Row({
  item,
  index,
  issues,
  references,
  change,
  onRowFiles,
  onPasteLines,
  onPickFiles,
}: RowProps) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  const n = index + 1;
  // The drop itself goes on to the screen's drop zone, which ends its highlight and gives the
  // files to this row (data-drop-row); stopping it here left the whole screen outlined.
  const onDrop = () => setDragging(false);
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (e.clipboardData.files.length) {
      e.preventDefault();
      onRowFiles([...e.clipboardData.files], index);
      return;
    }
    const lines = pastedLines(e.clipboardData.getData('text/plain'));
    if (!lines) return;
    e.preventDefault();
    onPasteLines(lines, index);
  };
  const hasIssues = !!issues?.length;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={`grid-row${hasIssues ? ' has-issues' : ''}${dragging ? ' drop-target' : ''}`}
      data-testid={`grid-row-${index}`}
      data-drop-row={index}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          e.stopPropagation();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div role="cell" className="cell cell-index">
        {n}
      </div>
      <div role="cell" className="cell cell-id">
        <input
          aria-label={`${t('compose.rowLabel', { n })} ${t('compose.colId')}`}
          data-row={index}
          data-col="id"
          value={item.customId}
          spellCheck={false}
          onChange={(e) => change(draftActions.setItem(index, { customId: e.target.value }), `id:${index}`)}
        />
      </div>
      <div role="cell" className="cell cell-prompt">
        <textarea
          aria-label={`${t('compose.rowLabel', { n })} ${t('compose.colPrompt')}`}
          aria-invalid={hasIssues || undefined}
          data-row={index}
          data-col="prompt"
          value={item.prompt}
          rows={3}
          onChange={(e) => change(draftActions.setItem(index, { prompt: e.target.value }), `prompt:${index}`)}
          onPaste={onPaste}
        />
        {hasIssues && (
          <ul className="row-issues" data-testid={`row-issues-${index}`}>
            {issues!.map((issue, i) => (
              <li key={i}>{t(`compose.issue.${issue.code}`, issue.params)}</li>
            ))}
          </ul>
        )}
      </div>
      <div role="cell" className="cell cell-count">
        <input
          aria-label={`${t('compose.rowLabel', { n })} ${t('compose.colCount')}`}
          data-row={index}
          data-col="count"
          inputMode="numeric"
          value={String(item.outputCount)}
          onChange={(e) => {
            const value = Number(e.target.value.replace(/\D/g, '') || 0);
            change(draftActions.setItem(index, { outputCount: value }), `count:${index}`);
          }}
        />
      </div>
      <div role="cell" className="cell cell-refs">
        {item.referenceIds.map((id) => {
          const ref = references.get(id);
          return ref ? (
            <ReferenceThumb
              key={id}
              reference={ref}
              onRemove={() => change(draftActions.removeReference(id, index))}
            />
          ) : null;
        })}
        <button
          type="button"
          className="ghost small"
          aria-label={t('compose.addRowRefs', { n })}
          onClick={() => onPickFiles(index)}
        >
          +
        </button>
      </div>
      <div role="cell" className="cell cell-actions">
        <button
          type="button"
          className="icon"
          aria-label={`${t('compose.moveUp')} ${n}`}
          onClick={() => change(draftActions.moveRow(index, -1))}
        >
          ↑
        </button>
        <button
          type="button"
          className="icon"
          aria-label={`${t('compose.moveDown')} ${n}`}
          onClick={() => change(draftActions.moveRow(index, 1))}
        >
          ↓
        </button>
        <button
          type="button"
          className="icon"
          aria-label={`${t('compose.duplicate')} ${n}`}
          onClick={() => change(draftActions.duplicateRow(index))}
        >
          ❐
        </button>
        <button
          type="button"
          className="icon danger"
          aria-label={`${t('compose.remove')} ${n}`}
          onClick={() => change(draftActions.removeRow(index))}
        >
          ×
        </button>
      </div>
    </div>
  );
});

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
    (row: number, col: Column) => {
      virtualizer.scrollToIndex(row, { align: 'auto' });
      const tryFocus = (attempt: number) => {
        const el = scroller.current?.querySelector<HTMLElement>(`[data-row="${row}"][data-col="${col}"]`);
        if (el) el.focus();
        else if (attempt < 5) requestAnimationFrame(() => tryFocus(attempt + 1));
      };
      requestAnimationFrame(() => tryFocus(0));
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

  // Cell navigation stays a handler on the focused grid (it needs the cell the key came from), built
  // from the same list the `?` overlay shows. A handler returning false leaves the key to the field.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    const row = Number(target.dataset.row);
    const col = target.dataset.col as Column | undefined;
    if (!col || Number.isNaN(row)) return;
    const last = draft.items.length - 1;
    const inPrompt = target instanceof HTMLTextAreaElement;
    const caret = inPrompt ? (target as HTMLTextAreaElement) : undefined;
    const moveRow = (by: number) => {
      if (row + by < 0 || row + by > last) return;
      change(draftActions.moveRow(row, by));
      focusCell(row + by, col);
    };
    keyHandler(PROMPT_GRID_SHORTCUTS, {
      moveRow: (k) => moveRow(k.key === 'ArrowUp' ? -1 : 1),
      addRow: () => {
        change(draftActions.insertPrompts(row + 1, ['']));
        focusCell(row + 1, 'prompt');
      },
      duplicateRow: () => {
        change(draftActions.duplicateRow(row));
        focusCell(row + 1, col);
      },
      removeRow: () => {
        change(draftActions.removeRow(row));
        if (last > 0) focusCell(Math.min(row, last - 1), col);
      },
      rowUp: () => {
        if (row <= 0 || (caret && caret.value.slice(0, caret.selectionStart ?? 0).includes('\n')))
          return false;
        focusCell(row - 1, col);
      },
      rowDown: () => {
        if (row >= last || (caret && caret.value.slice(caret.selectionEnd ?? 0).includes('\n'))) return false;
        focusCell(row + 1, col);
      },
      enterDown: () => {
        if (inPrompt || row >= last) return false;
        focusCell(row + 1, col);
      },
      column: (k) => {
        if (inPrompt) return false;
        const next = COLUMNS[COLUMNS.indexOf(col) + (k.key === 'ArrowLeft' ? -1 : 1)];
        if (next) focusCell(row, next);
      },
    })(e);
  };

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
                <Row
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
