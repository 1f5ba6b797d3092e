import type { ClipboardEvent } from 'react';
import { flushSync } from 'react-dom';
import type { Draft } from '../../src-shared/draft';
import { cellsOf, clearCells, pasteCells, pasteTarget } from './grid-edits';
import type { Cell, Range } from './grid-range';
import { selectedRange, useGridSelection } from './grid-selection';
import { fromTsv, toTsv } from './tsv';

interface ClipboardContext {
  draft(): Draft;
  change(update: (d: Draft) => Draft): void;
  onFiles(files: File[], row?: number): void;
  /** Shows a pasted range selected, its top-left cell focused. */
  selectRange(range: Range, focus: Cell): void;
}

/** Whether the event is for the grid's cells rather than for text in a cell being edited. */
function forCells(e: ClipboardEvent): boolean {
  const target = e.target as HTMLElement;
  return target.dataset.col !== undefined && !useGridSelection.getState().editing;
}

/**
 * Copy, cut and paste on the selected cells, as TSV to and from Sheets and Excel. They are the
 * browser's clipboard events (which fire on a read-only cell too), so no clipboard permission is
 * asked. While a cell is being edited they are the field's own, on its text.
 */
export function gridClipboard({ draft, change, onFiles, selectRange }: ClipboardContext) {
  const copy = (e: ClipboardEvent) => {
    if (!forCells(e)) return false;
    e.preventDefault();
    const range = selectedRange(useGridSelection.getState());
    e.clipboardData.setData('text/plain', toTsv(cellsOf(draft().items, range)));
    return true;
  };
  return {
    onCopy: (e: ClipboardEvent) => void copy(e),
    onCut: (e: ClipboardEvent) => {
      if (copy(e)) change(clearCells(selectedRange(useGridSelection.getState())));
    },
    onPaste: (e: ClipboardEvent) => {
      if (!forCells(e)) return;
      e.preventDefault();
      const range = selectedRange(useGridSelection.getState());
      if (e.clipboardData.files.length) return onFiles([...e.clipboardData.files], range.top);
      const text = e.clipboardData.getData('text/plain');
      if (!text) return;
      // The range as it was at the paste: the table is put there even if the selection moves on.
      void fromTsv(text).then((table) => {
        flushSync(() => change(pasteCells(range, table)));
        const target = pasteTarget(range, table);
        selectRange(target, { row: target.top, col: target.left });
      });
    },
  };
}
