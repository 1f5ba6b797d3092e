import { beforeEach, describe, expect, it } from 'vitest';
import { clampCell, rangeOf } from '../compose/grid-range';
import { parseMarks, rowMarks, selectedRange, useGridSelection } from '../compose/grid-selection';

const marksOf = (row: number) => parseMarks(rowMarks(useGridSelection.getState(), row));

describe('the grid cursor and its range', () => {
  beforeEach(() => useGridSelection.getState().select({ row: 0, col: 1 }));

  it('spans the rectangle between anchor and cursor, in either direction', () => {
    expect(rangeOf({ row: 5, col: 2 }, { row: 1, col: 0 })).toEqual({ top: 1, bottom: 5, left: 0, right: 2 });
    const { select } = useGridSelection.getState();
    select({ row: 4, col: 1 });
    select({ row: 2, col: 0 }, true);
    expect(selectedRange(useGridSelection.getState())).toEqual({ top: 2, bottom: 4, left: 0, right: 1 });
  });

  it('gives a row outside the selection no marks, so it is not drawn again when the cursor moves', () => {
    const { select } = useGridSelection.getState();
    select({ row: 3, col: 1 });
    expect(rowMarks(useGridSelection.getState(), 7)).toBe('');
    const before = rowMarks(useGridSelection.getState(), 3);
    select({ row: 3, col: 1 });
    expect(rowMarks(useGridSelection.getState(), 3)).toBe(before);
  });

  it('marks the selected columns, the cursor and its edit on the rows concerned', () => {
    const { select, startEdit } = useGridSelection.getState();
    select({ row: 1, col: 0 });
    select({ row: 2, col: 1 }, true);
    expect(marksOf(1).selected(0)).toBe(true);
    expect(marksOf(1).selected(2)).toBe(false);
    expect(marksOf(1).cursor).toBeUndefined();
    expect(marksOf(2).cursor).toBe(1);
    expect(marksOf(2).editing).toBe(false);
    select({ row: 2, col: 1 });
    startEdit('text before');
    expect(marksOf(2)).toMatchObject({ cursor: 1, editing: true });
    // One cell alone is the cursor, not a range.
    expect(marksOf(2).selected(1)).toBe(false);
    expect(useGridSelection.getState().editStart).toBe('text before');
  });

  it('ends an edit when the cursor moves, and selects a pasted range with the cursor at its top-left', () => {
    const { startEdit, select, selectRange } = useGridSelection.getState();
    startEdit('x');
    select({ row: 1, col: 1 });
    expect(useGridSelection.getState().editing).toBe(false);
    selectRange({ top: 2, bottom: 5, left: 0, right: 2 });
    const s = useGridSelection.getState();
    expect(s.cursor).toEqual({ row: 2, col: 0 });
    expect(selectedRange(s)).toEqual({ top: 2, bottom: 5, left: 0, right: 2 });
  });

  it('keeps a cell inside the grid after rows go', () => {
    expect(clampCell({ row: 9, col: 5 }, 3)).toEqual({ row: 2, col: 2 });
    expect(clampCell({ row: 4, col: 1 }, 0)).toEqual({ row: 0, col: 1 });
  });
});
