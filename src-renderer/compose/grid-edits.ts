import type { Draft, DraftItem } from '../../src-shared/draft';
import { rowsFromPrompts } from '../shared/compose-store';
import { cellText, rangeHeight, rangeWidth, withCellText, type Range, COLUMNS } from './grid-range';

/**
 * Edits of a range of cells, pure like draftActions: each is given to `change` whole, so a paste, a
 * fill or a clear of any size is one undo step.
 */

/** The cells of a range, row by row: what a copy puts on the clipboard. */
export function cellsOf(items: readonly DraftItem[], range: Range): string[][] {
  const out: string[][] = [];
  for (let row = range.top; row <= range.bottom && row < items.length; row++) {
    const cells: string[] = [];
    for (let col = range.left; col <= range.right; col++) cells.push(cellText(items[row]!, col));
    out.push(cells);
  }
  return out;
}

/** Rows with their cells in a range rewritten by `text`, the others the same objects. */
function rewrite(d: Draft, range: Range, text: (row: number, col: number) => string | undefined): Draft {
  let changed = false;
  const items = d.items.map((item, row) => {
    if (row < range.top || row > range.bottom) return item;
    let next = item;
    for (let col = range.left; col <= range.right; col++) {
      const value = text(row, col);
      if (value !== undefined) next = withCellText(next, col, value);
    }
    if (next !== item) changed = true;
    return next;
  });
  return changed ? { ...d, items } : d;
}

/**
 * Where a paste lands and what it writes. One value pasted into a range of several cells fills it,
 * as in Sheets; otherwise the table goes from the range's top-left cell, cut at the last column and
 * adding the rows it needs below the last row.
 */
export function pasteTarget(selection: Range, table: readonly (readonly string[])[]): Range {
  const single = table.length === 1 && table[0]!.length === 1;
  if (single && (rangeHeight(selection) > 1 || rangeWidth(selection) > 1)) return selection;
  const width = Math.max(1, ...table.map((r) => r.length));
  return {
    top: selection.top,
    bottom: selection.top + table.length - 1,
    left: selection.left,
    right: Math.min(COLUMNS.length - 1, selection.left + width - 1),
  };
}

export function pasteCells(selection: Range, table: readonly (readonly string[])[]) {
  const target = pasteTarget(selection, table);
  const fill = target === selection && table.length === 1 && table[0]!.length === 1;
  return (d: Draft): Draft => {
    const missing = target.bottom + 1 - d.items.length;
    const grown =
      missing > 0
        ? { ...d, items: [...d.items, ...rowsFromPrompts(d.items, Array<string>(missing).fill(''))] }
        : d;
    return rewrite(grown, target, (row, col) =>
      fill ? table[0]![0] : table[row - target.top]?.[col - target.left],
    );
  };
}

/**
 * Ctrl+D: the range's top row copied into the rows below it. A range of one row takes the row above,
 * as Sheets does.
 */
export function fillDown(range: Range) {
  return (d: Draft): Draft => {
    const source = range.top === range.bottom ? range.top - 1 : range.top;
    const from = d.items[source];
    if (!from) return d;
    const target = { ...range, top: source + 1 };
    return rewrite(d, target, (_row, col) => cellText(from, col));
  };
}

/** Delete: text cells emptied; an image count, which cannot be empty, goes back to one image. */
export function clearCells(range: Range) {
  return (d: Draft): Draft => rewrite(d, range, (_row, col) => (COLUMNS[col] === 'count' ? '1' : ''));
}
