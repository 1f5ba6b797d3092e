import { useCallback, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import type { Draft } from '../../src-shared/draft';
import { keyHandler, PROMPT_GRID_SHORTCUTS } from '../shell/shortcuts';
import { draftActions } from './draft-actions';

export type GridColumn = 'id' | 'prompt' | 'count';
const COLUMNS: GridColumn[] = ['id', 'prompt', 'count'];

interface GridKeys {
  /** The number of rows in the draft. */
  rows: number;
  change(update: (d: Draft) => Draft): void;
  /** Moves the focus to a cell, scrolling the virtual grid to it first. */
  focusCell(row: number, col: GridColumn): void;
}

/**
 * The grid's key handler. Cell navigation stays a handler on the focused grid (it needs the cell the
 * key came from), built from the same list the `?` overlay shows. A handler returning false leaves
 * the key to the field.
 */
export function useGridKeys({ rows, change, focusCell }: GridKeys) {
  return useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      // Row edits are drawn before the handler returns, so the focus can move with the same key.
      const changeNow = (update: (d: Draft) => Draft) => flushSync(() => change(update));
      const target = e.target as HTMLElement;
      const row = Number(target.dataset.row);
      const col = target.dataset.col as GridColumn | undefined;
      if (!col || Number.isNaN(row)) return;
      const last = rows - 1;
      const inPrompt = target instanceof HTMLTextAreaElement;
      const caret = inPrompt ? (target as HTMLTextAreaElement) : undefined;
      const moveRow = (by: number) => {
        if (row + by < 0 || row + by > last) return;
        changeNow(draftActions.moveRow(row, by));
        focusCell(row + by, col);
      };
      keyHandler(PROMPT_GRID_SHORTCUTS, {
        moveRow: (k) => moveRow(k.key === 'ArrowUp' ? -1 : 1),
        addRow: () => {
          changeNow(draftActions.insertPrompts(row + 1, ['']));
          focusCell(row + 1, 'prompt');
        },
        duplicateRow: () => {
          changeNow(draftActions.duplicateRow(row));
          focusCell(row + 1, col);
        },
        removeRow: () => {
          changeNow(draftActions.removeRow(row));
          if (last > 0) focusCell(Math.min(row, last - 1), col);
        },
        rowUp: () => {
          if (row <= 0 || (caret && caret.value.slice(0, caret.selectionStart ?? 0).includes('\n')))
            return false;
          focusCell(row - 1, col);
        },
        rowDown: () => {
          if (row >= last || (caret && caret.value.slice(caret.selectionEnd ?? 0).includes('\n')))
            return false;
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
    },
    [rows, change, focusCell],
  );
}
