import { beforeEach, describe, expect, it } from 'vitest';
import type { ReviewMark } from '../../src-shared/library-view';
import { chooseOne, type ChoiceMark } from '../library/library-choice';
import { recordMarkStep, undoWrites, useMarkHistory } from '../library/library-mark-history';

/** Images' marks as on disk, written and recorded for undo the way the gallery's marks are. */
function library(initial: Record<string, ReviewMark>) {
  const marks = new Map(Object.entries(initial));
  const mark: ChoiceMark = (ids, change, { join = false } = {}) => {
    const before = ids.map((id) => ({ id, mark: marks.get(id) ?? null, stars: 0 }));
    for (const id of ids) if (change.mark !== undefined) marks.set(id, change.mark);
    recordMarkStep({ writes: [{ ids, after: change }], before }, join);
  };
  const undo = () => {
    const step = useMarkHistory.getState().undo.at(-1)!;
    useMarkHistory.setState((s) => ({ undo: s.undo.slice(0, -1) }));
    for (const write of undoWrites(step))
      for (const id of write.ids) marks.set(id, write.change.mark ?? null);
  };
  return { mark, undo, marks: () => Object.fromEntries(marks) };
}

describe('choosing one image among several', () => {
  beforeEach(() => useMarkHistory.setState({ undo: [], redo: [] }));

  it('picks it and rejects the others, and one undo puts all of them back', () => {
    const lib = library({ a: null, b: 'picked', c: null });
    expect(chooseOne(lib.mark, 'c', ['a', 'b', 'c'], 'rejected')).toBe(2);
    expect(lib.marks()).toEqual({ a: 'rejected', b: 'rejected', c: 'picked' });
    expect(useMarkHistory.getState().undo).toHaveLength(1);
    lib.undo();
    expect(lib.marks()).toEqual({ a: null, b: 'picked', c: null });
  });

  it('across models, keeps the others as alternatives', () => {
    const lib = library({ a: null, b: null });
    expect(chooseOne(lib.mark, 'a', ['a', 'b'], 'alternative')).toBe(1);
    expect(lib.marks()).toEqual({ a: 'picked', b: 'alternative' });
    expect(useMarkHistory.getState().undo).toHaveLength(1);
  });

  it('alone, picks it as a step of its own: undo leaves the earlier mark in place', () => {
    const lib = library({ a: null, b: null });
    lib.mark(['b'], { mark: 'rejected' });
    expect(chooseOne(lib.mark, 'a', ['a'], 'rejected')).toBe(0);
    lib.undo();
    expect(lib.marks()).toEqual({ a: null, b: 'rejected' });
  });
});
