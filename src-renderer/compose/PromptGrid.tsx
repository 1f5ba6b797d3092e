import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  type ClipboardEvent,
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type Ref,
} from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import type { DraftIssue } from '../../src-shared/draft-rules';
import { useCompose } from '../shared/compose-store';
import { gridTemplate, useComposePrefs } from './compose-prefs';
import { draftActions } from '../shared/draft-actions';
import { gridClipboard } from './grid-clipboard';
import { gridKeyHandler, rowButtonKeys, type FocusOptions } from './grid-keys';
import { cellText, clampCell, COLUMNS, type Cell, type Range } from './grid-range';
import { useGridSelection } from './grid-selection';
import { GridHeader } from './GridHeader';
import { pastedLines, PromptRow } from './PromptRow';

/** One line of text (about 32 px, as in Sheets); a row with messages gets a second line for them. */
const ROW_HEIGHT = 30;
const ISSUES_HEIGHT = 20;
/** The header row's height, as compose.css draws it. */
const HEADER_HEIGHT = 29;

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

/** The text cell a DOM event came from, if any. */
function cellOf(target: EventTarget): Cell | undefined {
  const el = target as HTMLElement;
  if (el.dataset?.col === undefined || el.dataset.row === undefined) return undefined;
  return { row: Number(el.dataset.row), col: Number(el.dataset.col) };
}

/**
 * The prompt grid: a spreadsheet of one-line rows, virtualized so that thousands stay fast. A cell
 * cursor and ranges (grid-selection), keys as in Sheets (grid-keys), TSV copy and paste
 * (grid-clipboard); each edit of a range is one undo step.
 */
export function PromptGrid({ ref, draft, issuesByRow, change, onFiles, onPickFiles }: GridProps) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const widths = useComposePrefs((s) => s.widths);
  const references = useMemo(() => new Map(draft.references.map((r) => [r.id, r])), [draft.references]);
  // Rows get stable callbacks, so a keystroke re-renders the row typed in and no other.
  const latest = useRef({ onFiles, onPickFiles });
  useLayoutEffect(() => {
    latest.current = { onFiles, onPickFiles };
  });
  const pickFiles = useCallback((row: number) => latest.current.onPickFiles(row), []);
  const virtualizer = useVirtualizer({
    count: draft.items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (issuesByRow.has(i) ? ROW_HEIGHT + ISSUES_HEIGHT : ROW_HEIGHT),
    overscan: 6,
    // The rows start under the sticky header, and a row scrolled to stops below it.
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  });
  // Rows gain or lose their line of messages as they are checked: heights are taken again then.
  const issueRows = [...issuesByRow.keys()].join(',');
  useEffect(() => virtualizer.measure(), [issueRows, virtualizer]);

  const focusCell = useCallback(
    (cell: Cell, options: FocusOptions = {}) => {
      const sel = useGridSelection.getState();
      sel.select(cell, options.extend);
      const item = useCompose.getState().draft?.items[cell.row];
      if (options.edit && item) sel.startEdit(cellText(item, cell.col));
      virtualizer.scrollToIndex(cell.row, { align: 'auto' });
      const tryFocus = (attempt: number) => {
        const el = scroller.current?.querySelector<HTMLInputElement | HTMLTextAreaElement>(
          `[data-row="${cell.row}"][data-col="${cell.col}"]`,
        );
        if (el) {
          el.focus({ preventScroll: false });
          if (options.edit) el.setSelectionRange(el.value.length, el.value.length);
        } else if (attempt < 5) requestAnimationFrame(() => tryFocus(attempt + 1));
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
        focusCell({ row, col: 1 });
        // Once focused, the whole row (its messages too) is brought clear of the sticky totals bar,
        // and kept so until it has stayed in view for a few frames: the virtualizer measures the
        // rows it has just drawn and may move them after the first reveal (seen on a busy machine).
        const reveal = (attempt: number, settled: number) => {
          const el = scroller.current?.querySelector<HTMLElement>(`[data-drop-row="${row}"]`);
          const view = scroller.current?.getBoundingClientRect();
          let inView = false;
          if (el && view && el.contains(document.activeElement)) {
            const box = el.getBoundingClientRect();
            const bar = document.querySelector('.totals-bar')?.getBoundingClientRect().top ?? Infinity;
            inView = box.top >= view.top && box.bottom <= Math.min(view.bottom, bar);
            if (!inView) el.scrollIntoView({ block: 'nearest' });
          }
          if (settled < 3 && attempt < 30)
            requestAnimationFrame(() => reveal(attempt + 1, inView ? settled + 1 : 0));
        };
        requestAnimationFrame(() => reveal(0, 0));
      },
    }),
    [focusCell],
  );

  const draftNow = useCallback(() => useCompose.getState().draft ?? draft, [draft]);
  const onKeyDown = useMemo(() => {
    const cells = gridKeyHandler({ draft: draftNow, change, focusCell });
    return (e: KeyboardEvent<HTMLDivElement>) => {
      cells(e);
      rowButtonKeys(e, (row) => focusCell({ row, col: COLUMNS.length - 1 }));
    };
  }, [draftNow, change, focusCell]);
  const clipboard = useMemo(
    () =>
      gridClipboard({
        draft: draftNow,
        change,
        onFiles: (files, row) => latest.current.onFiles(files, row),
        selectRange: (range: Range, focus: Cell) => {
          useGridSelection.getState().selectRange(range);
          focusCell(focus, { extend: true });
        },
      }),
    [draftNow, change, focusCell],
  );

  // The cursor follows the focus (a click, a test's focus(), Tab into the grid); a cell that already
  // has the cursor keeps its edit.
  const onFocus = (e: FocusEvent) => {
    const cell = cellOf(e.target);
    if (!cell) return;
    const { cursor, select } = useGridSelection.getState();
    if (cursor.row !== cell.row || cursor.col !== cell.col) select(cell);
  };
  const onMouseDown = (e: MouseEvent) => {
    const cell = cellOf(e.target);
    if (!cell) return;
    if (!e.shiftKey) {
      // A click collapses a range to the cell clicked, even the focused one (which gets no focus
      // event); in the cell being edited it only places the caret.
      const { cursor, editing, select } = useGridSelection.getState();
      if (!(editing && cursor.row === cell.row && cursor.col === cell.col)) select(cell);
      return;
    }
    // Shift+click selects from the anchor to this cell rather than moving the caret.
    e.preventDefault();
    focusCell(cell, { extend: true });
  };
  const onDoubleClick = (e: MouseEvent) => {
    const cell = cellOf(e.target);
    const item = draft.items[cell?.row ?? -1];
    if (!cell || !item || useGridSelection.getState().editing) return;
    useGridSelection.getState().startEdit(cellText(item, cell.col));
  };

  // Rows removed (an undo, a remove) leave the cursor inside the grid.
  const rows = draft.items.length;
  useEffect(() => {
    const { cursor, anchor, select } = useGridSelection.getState();
    if (rows && (cursor.row >= rows || anchor.row >= rows)) select(clampCell(cursor, rows));
  }, [rows]);

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
    <div
      className="prompt-grid"
      style={{ '--grid-columns': gridTemplate(widths) } as CSSProperties}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onMouseDown={onMouseDown}
      onDoubleClick={onDoubleClick}
      onCopy={clipboard.onCopy}
      onCut={clipboard.onCut}
      onPaste={clipboard.onPaste}
    >
      <div
        role="grid"
        aria-label={t('compose.gridLabel')}
        aria-rowcount={draft.items.length + 1}
        aria-multiselectable
        className="grid-table"
      >
        {/* The header scrolls with the body sideways and sticks to its top, so the columns line up
            whatever the scrollbar takes. */}
        <div ref={scroller} className="grid-body" data-testid="grid-body">
          <GridHeader />
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => (
              <div
                key={v.key}
                className="grid-slot"
                style={{ height: v.size, transform: `translateY(${v.start - HEADER_HEIGHT}px)` }}
              >
                <PromptRow
                  item={draft.items[v.index]!}
                  index={v.index}
                  issues={issuesByRow.get(v.index)}
                  references={references}
                  change={change}
                  onPickFiles={pickFiles}
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
          rows={1}
          value=""
          onChange={(e) => {
            const text = e.target.value;
            if (!text) return;
            const at = draft.items.length;
            // Drawn at once, so that focus is in the new row's prompt before the next key: a frame
            // later, a fast typist's next keys made a second row.
            flushSync(() => change(draftActions.insertPrompts(at, [text]), `prompt:${at}`));
            focusCell({ row: at, col: 1 }, { edit: true });
          }}
          onPaste={onNewRowPaste}
        />
      </div>
    </div>
  );
}
