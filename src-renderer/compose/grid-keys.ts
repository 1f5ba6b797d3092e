import type { KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import type { Draft } from '../../src-shared/draft';
import { keyHandler, PROMPT_GRID_SHORTCUTS } from '../shell/shortcuts';
import { draftActions } from '../shared/draft-actions';
import { clearCells, fillDown } from './grid-edits';
import { cellText, COLUMNS, withCellText, type Cell } from './grid-range';
import { selectedRange, useGridSelection } from './grid-selection';

export interface FocusOptions {
  /** Keep the anchor where it is: the move selects a range. */
  extend?: boolean;
  /** Start editing the cell, the caret at the end of its text. */
  edit?: boolean;
}

interface GridKeyContext {
  draft(): Draft;
  change(update: (d: Draft) => Draft, key?: string): void;
  /** Moves the cursor to a cell, scrolling the virtual grid to it, and focuses it. */
  focusCell(cell: Cell, options?: FocusOptions): void;
}

const editKey = (cell: Cell) => `${COLUMNS[cell.col]}:${cell.row}`;

/** A draft with one cell's text set. */
const setCell =
  (cell: Cell, text: string) =>
  (d: Draft): Draft => ({
    ...d,
    items: d.items.map((item, i) => (i === cell.row ? withCellText(item, cell.col, text) : item)),
  });

/** Whether the caret of a prompt being edited can leave it upwards (-1) or downwards (1). */
function caretAtEdge(field: HTMLElement, by: -1 | 1): boolean {
  if (!(field instanceof HTMLTextAreaElement)) return true;
  const before = field.value.slice(0, field.selectionStart ?? 0);
  const after = field.value.slice(field.selectionEnd ?? 0);
  return by < 0 ? !before.includes('\n') : !after.includes('\n');
}

/** The grid row an element is in, and its buttons. */
function rowOf(el: Element): { row: HTMLElement; buttons: HTMLButtonElement[] } | undefined {
  const row = el.closest<HTMLElement>('[data-drop-row]');
  return row ? { row, buttons: [...row.querySelectorAll<HTMLButtonElement>('button')] } : undefined;
}

/** Focuses a row's button by its index (negative from the end), if it has one. */
function focusRowButton(from: HTMLElement, index: number): boolean {
  const buttons = rowOf(from)?.buttons ?? [];
  const button = buttons.at(index);
  button?.focus();
  return !!button;
}

/**
 * Keys on a row's buttons, which are out of the tab order so that Tab goes from cell to cell: Left
 * and Right move between them, and Left from the first goes back to the row's last text cell.
 */
export function rowButtonKeys(e: KeyboardEvent<HTMLDivElement>, backToCells: (row: number) => void): void {
  const button = e.target;
  if (!(button instanceof HTMLButtonElement) || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
  const found = rowOf(button);
  if (!found) return;
  const { row, buttons } = found;
  const at = buttons.indexOf(button) + (e.key === 'ArrowLeft' ? -1 : 1);
  e.preventDefault();
  if (at < 0) backToCells(Number(row.dataset.dropRow));
  else buttons[Math.min(at, buttons.length - 1)]!.focus();
}

/**
 * The grid's key handler, for keys on a text cell. It works from the cursor in the selection store,
 * built from the same list the `?` overlay shows; a handler returning false leaves the key to the
 * field (the caret moves while editing). A printable key on a cell not being edited starts its edit,
 * replacing the text, as in Sheets.
 */
export function gridKeyHandler({ draft, change, focusCell }: GridKeyContext) {
  return (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (target.dataset.col === undefined || target.dataset.row === undefined) return;
    const sel = useGridSelection.getState();
    const { cursor, editing } = sel;
    // An input method (Chinese, Japanese) composing: its keys (Enter to take a candidate, arrows to
    // choose one) are its own. On a selected cell the first of them empties the cell and makes it
    // editable before the composition starts, so the composed text replaces it as a typed key does.
    if (e.key === 'Process' || e.nativeEvent.isComposing) {
      const item = draft().items[cursor.row];
      if (editing || !item) return;
      flushSync(() => {
        sel.startEdit(cellText(item, cursor.col));
        change(setCell(cursor, ''), editKey(cursor));
      });
      return;
    }
    const rows = draft().items.length;
    const last = rows - 1;
    // Row edits are drawn before the handler returns, so the focus can move with the same key.
    const changeNow = (update: (d: Draft) => Draft) => flushSync(() => change(update));
    const go = (row: number, col: number, options?: FocusOptions) =>
      focusCell(
        { row: Math.max(0, Math.min(last, row)), col: Math.max(0, Math.min(COLUMNS.length - 1, col)) },
        options,
      );
    /** Leaves the cell being edited (its text is already in the draft) and moves. */
    const commitAndGo = (row: number, col: number) => {
      sel.endEdit();
      go(row, col);
    };
    const arrow = (k: { key: string }): [number, number] =>
      ({ ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] })[k.key] as [
        number,
        number,
      ];

    const handled = keyHandler(PROMPT_GRID_SHORTCUTS, {
      cellMove: (k) => {
        const [dr, dc] = arrow(k);
        if (editing) {
          if (dc !== 0 || !caretAtEdge(target, dr as -1 | 1)) return false;
          return commitAndGo(cursor.row + dr, cursor.col);
        }
        // Right of the last text cell are the row's buttons (references, side editor, move, remove).
        if (dc > 0 && cursor.col === COLUMNS.length - 1) return focusRowButton(target, 0);
        go(cursor.row + dr, cursor.col + dc);
      },
      cellExtend: (k) => {
        if (editing) return false;
        const [dr, dc] = arrow(k);
        go(cursor.row + dr, cursor.col + dc, { extend: true });
      },
      cellNext: (k) => {
        const forward = !k.shiftKey;
        let { row, col } = cursor;
        col += forward ? 1 : -1;
        if (col >= COLUMNS.length) [row, col] = [row + 1, 0];
        if (col < 0) [row, col] = [row - 1, COLUMNS.length - 1];
        // Past the first or last cell, Tab leaves the grid as it does any other control.
        if (row < 0 || row > last) {
          sel.endEdit();
          return false;
        }
        commitAndGo(row, col);
      },
      rowStartEnd: (k) => {
        if (editing) return false;
        const toEnd = k.key === 'End';
        if (k.ctrlKey || k.metaKey) go(toEnd ? last : 0, cursor.col);
        else go(cursor.row, toEnd ? COLUMNS.length - 1 : 0);
      },
      editCell: (k) => {
        if (!editing) return go(cursor.row, cursor.col, { edit: true });
        if (k.key === 'F2') return false;
        commitAndGo(cursor.row + 1, cursor.col);
      },
      newLine: (k) => {
        if (!editing || !(target instanceof HTMLTextAreaElement)) return false;
        // Shift+Enter is the textarea's own new line; Alt+Enter (Excel's) is typed here the same way.
        if (k.shiftKey) return false;
        document.execCommand('insertText', false, '\n');
      },
      cancelEdit: () => {
        if (!editing) {
          sel.select(cursor);
          return;
        }
        const before = sel.editStart;
        const item = draft().items[cursor.row];
        if (before !== undefined && item && cellText(item, cursor.col) !== before)
          flushSync(() => change(setCell(cursor, before), editKey(cursor)));
        sel.endEdit();
      },
      selectAllCells: () => {
        if (editing || !rows) return false;
        sel.selectRange({ top: 0, bottom: last, left: 0, right: COLUMNS.length - 1 });
      },
      // The browser's copy, cut and paste events come to the grid (grid-clipboard).
      copyCells: () => false,
      cutCells: () => false,
      pasteCells: () => false,
      fillDown: () => {
        sel.endEdit();
        changeNow(fillDown(selectedRange(sel)));
      },
      clearCells: () => {
        if (editing) return false;
        changeNow(clearCells(selectedRange(sel)));
      },
      sideEditor: () => {
        sel.endEdit();
        sel.openSide(cursor.row);
      },
      addRow: () => {
        changeNow(draftActions.insertPrompts(cursor.row + 1, ['']));
        go(cursor.row + 1, 1, { edit: true });
      },
      moveRow: (k) => {
        const by = k.key === 'ArrowUp' ? -1 : 1;
        if (cursor.row + by < 0 || cursor.row + by > last) return;
        changeNow(draftActions.moveRow(cursor.row, by));
        go(cursor.row + by, cursor.col);
      },
      duplicateRow: () => {
        changeNow(draftActions.duplicateRow(cursor.row));
        go(cursor.row + 1, cursor.col);
      },
      removeRow: () => {
        changeNow(draftActions.removeRow(cursor.row));
        if (last > 0) go(Math.min(cursor.row, last - 1), cursor.col);
      },
    })(e);
    if (handled || editing) return;

    // A character typed on a selected cell replaces its text and goes on editing it, as in Sheets.
    const printable = e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey;
    if (!printable || (COLUMNS[cursor.col] === 'count' && !/\d/.test(e.key))) return;
    e.preventDefault();
    const item = draft().items[cursor.row];
    if (!item) return;
    flushSync(() => {
      sel.startEdit(cellText(item, cursor.col));
      change(setCell(cursor, e.key), editKey(cursor));
    });
  };
}
