import type { DraftItem } from '../../src-shared/draft';

/** The grid's text columns, in order: the ones the cursor visits and a copy or paste covers. */
export const COLUMNS = ['id', 'prompt', 'count'] as const;

/** A cell by row and column index (into COLUMNS). */
export interface Cell {
  row: number;
  col: number;
}

/** A rectangle of cells, both ends included. */
export interface Range {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The rectangle between two corners, in either order. */
export function rangeOf(a: Cell, b: Cell): Range {
  return {
    top: Math.min(a.row, b.row),
    bottom: Math.max(a.row, b.row),
    left: Math.min(a.col, b.col),
    right: Math.max(a.col, b.col),
  };
}

export function rangeHeight(r: Range): number {
  return r.bottom - r.top + 1;
}

export function rangeWidth(r: Range): number {
  return r.right - r.left + 1;
}

/** A cell kept inside a grid of `rows` rows (at least row 0, for an empty grid). */
export function clampCell(cell: Cell, rows: number): Cell {
  return {
    row: Math.max(0, Math.min(cell.row, rows - 1)),
    col: Math.max(0, Math.min(cell.col, COLUMNS.length - 1)),
  };
}

/** The text a cell shows and copies. */
export function cellText(item: DraftItem, col: number): string {
  const column = COLUMNS[col];
  if (column === 'id') return item.customId;
  if (column === 'count') return String(item.outputCount);
  return item.prompt;
}

/** What a count cell holds once text is written in it: its digits, as Sheets would keep a number. */
export function countOf(text: string): number {
  return Number(text.replace(/\D/g, '') || 0);
}

/** A row with text written into one of its cells. */
export function withCellText(item: DraftItem, col: number, text: string): DraftItem {
  const column = COLUMNS[col];
  if (column === 'id') return item.customId === text ? item : { ...item, customId: text };
  if (column === 'count') {
    const outputCount = countOf(text);
    return item.outputCount === outputCount ? item : { ...item, outputCount };
  }
  return item.prompt === text ? item : { ...item, prompt: text };
}
