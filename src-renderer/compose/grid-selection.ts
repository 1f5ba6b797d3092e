import { create } from 'zustand';
import { rangeOf, type Cell, type Range } from './grid-range';

interface GridSelection {
  /** Where a range started: Shift+arrows and Shift+click move the cursor away from it. */
  anchor: Cell;
  /** The cell cursor: the focused cell, the one Enter edits. */
  cursor: Cell;
  /** Whether the cursor's cell is being edited (typed into) rather than only selected. */
  editing: boolean;
  /** The cell's text when its edit began, for Escape to put back. */
  editStart?: string;
  /** The row open in the side editor. */
  sideRow?: number;
  /** Moves the cursor; with `extend`, the anchor stays and a range is selected. Ends any edit. */
  select(cursor: Cell, extend?: boolean): void;
  /** Selects a whole range, the cursor at its top-left (Ctrl+A, after a paste). */
  selectRange(range: Range): void;
  startEdit(text: string): void;
  endEdit(): void;
  openSide(row: number | undefined): void;
}

const origin: Cell = { row: 0, col: 1 };

/**
 * The grid's cursor and selected range, apart from the draft: a cursor move changes no draft, and
 * each row reads only its own marks (`rowMarks`), so a move re-renders the rows it leaves and enters.
 */
export const useGridSelection = create<GridSelection>((set) => ({
  anchor: origin,
  cursor: origin,
  editing: false,
  select: (cursor, extend) =>
    set((s) => ({ cursor, anchor: extend ? s.anchor : cursor, editing: false, editStart: undefined })),
  selectRange: (r) =>
    set({
      anchor: { row: r.bottom, col: r.right },
      cursor: { row: r.top, col: r.left },
      editing: false,
      editStart: undefined,
    }),
  startEdit: (text) => set({ editing: true, editStart: text }),
  endEdit: () => set({ editing: false, editStart: undefined }),
  openSide: (sideRow) => set({ sideRow }),
}));

export function selectedRange(s: Pick<GridSelection, 'anchor' | 'cursor'>): Range {
  return rangeOf(s.anchor, s.cursor);
}

/**
 * One row's marks as a short string, which zustand compares by value: "" for a row outside the
 * selection, else the selected columns, the cursor's column and whether it is being edited.
 */
export function rowMarks(s: GridSelection, row: number): string {
  const r = selectedRange(s);
  const inRange = row >= r.top && row <= r.bottom;
  const isCursorRow = s.cursor.row === row;
  if (!inRange && !isCursorRow) return '';
  const multi = r.top !== r.bottom || r.left !== r.right;
  const cols = inRange && multi ? `${r.left}-${r.right}` : '';
  return `${cols}|${isCursorRow ? s.cursor.col : ''}|${isCursorRow && s.editing ? 'e' : ''}`;
}

/** A row's marks read back: which columns are in the range, which has the cursor, which is edited. */
export function parseMarks(marks: string): {
  selected(col: number): boolean;
  cursor?: number;
  editing: boolean;
} {
  const [cols = '', cursor = '', editing = ''] = marks.split('|');
  const [left, right] = cols ? cols.split('-').map(Number) : [NaN, NaN];
  return {
    selected: (col) => col >= left! && col <= right!,
    cursor: cursor === '' ? undefined : Number(cursor),
    editing: editing === 'e',
  };
}
