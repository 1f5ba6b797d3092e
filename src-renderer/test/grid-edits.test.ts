import { describe, expect, it } from 'vitest';
import type { Draft } from '../../src-shared/draft';
import { emptyDraft, rowsFromPrompts } from '../shared/compose-store';
import { cellsOf, clearCells, fillDown, pasteCells } from '../compose/grid-edits';

function draftOf(prompts: string[]): Draft {
  const d = emptyDraft('m');
  return { ...d, items: rowsFromPrompts([], prompts) };
}
const range = (top: number, bottom: number, left: number, right: number) => ({ top, bottom, left, right });
const prompts = (d: Draft) => d.items.map((i) => i.prompt);

describe('range edits of the prompt grid', () => {
  it('copies the id, prompt and count columns of a range', () => {
    const d = draftOf(['a', 'b', 'c']);
    expect(cellsOf(d.items, range(1, 2, 0, 2))).toEqual([
      ['row-002', 'b', '1'],
      ['row-003', 'c', '1'],
    ]);
  });

  it('pastes a table from the top-left cell and adds the rows it needs', () => {
    const d = pasteCells(range(1, 1, 1, 1), [
      ['B', '3'],
      ['C', '2'],
      ['D', '1'],
    ])(draftOf(['a', 'b']));
    expect(prompts(d)).toEqual(['a', 'B', 'C', 'D']);
    expect(d.items.map((i) => i.outputCount)).toEqual([1, 3, 2, 1]);
    expect(new Set(d.items.map((i) => i.customId)).size).toBe(4);
  });

  it('cuts a paste at the last column', () => {
    const d = pasteCells(range(0, 0, 2, 2), [['4', 'extra']])(draftOf(['a']));
    expect(d.items[0]).toMatchObject({ prompt: 'a', outputCount: 4 });
  });

  it('fills a range with one pasted value', () => {
    const d = pasteCells(range(0, 2, 1, 1), [['same']])(draftOf(['a', 'b', 'c', 'd']));
    expect(prompts(d)).toEqual(['same', 'same', 'same', 'd']);
  });

  it('fills down from the top row, or from the row above a one-row range', () => {
    expect(prompts(fillDown(range(0, 2, 1, 1))(draftOf(['a', 'b', 'c'])))).toEqual(['a', 'a', 'a']);
    expect(prompts(fillDown(range(2, 2, 1, 1))(draftOf(['a', 'b', 'c'])))).toEqual(['a', 'b', 'b']);
    const first = draftOf(['a']);
    expect(fillDown(range(0, 0, 1, 1))(first)).toBe(first);
  });

  it('clears text cells and puts counts back to one', () => {
    const d = pasteCells(range(0, 0, 2, 2), [['5']])(draftOf(['a', 'b']));
    const cleared = clearCells(range(0, 0, 1, 2))(d);
    expect(cleared.items[0]).toMatchObject({ prompt: '', outputCount: 1 });
    expect(cleared.items[1]).toBe(d.items[1]);
  });

  it('leaves the draft as it is when nothing changes, so no empty undo step is made', () => {
    const d = draftOf(['a', 'a']);
    expect(fillDown(range(1, 1, 1, 1))(d)).toBe(d);
  });
});
