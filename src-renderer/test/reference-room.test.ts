import { describe, expect, it } from 'vitest';
import type { Draft } from '../../src-shared/draft';
import { referenceRoom } from '../shared/reference-room';

const draft = (model: string, shared: string[], rows: string[][]): Draft => ({
  id: 'd',
  name: '',
  model,
  items: rows.map((referenceIds, i) => ({ customId: `row-${i}`, prompt: 'p', outputCount: 1, referenceIds })),
  sharedReferenceIds: shared,
  references: [],
  responseMime: 'image/png',
});

describe('room for one more reference', () => {
  it('every row must have room for a shared one; one row only for its own', () => {
    // Flash takes 3 per row: row 0 has 1 shared + 2 own, row 1 only the shared one.
    const d = draft('imgvendor-3.1-flash-image', ['a'], [['b', 'c'], []]);
    expect(referenceRoom(d, undefined)).toEqual({ fits: false, limit: 3 });
    expect(referenceRoom(d, 0)).toEqual({ fits: false, limit: 3 });
    expect(referenceRoom(d, 1)).toEqual({ fits: true, limit: 3 });
  });

  it('a draft without rows counts its shared references', () => {
    expect(referenceRoom(draft('imgvendor-3.1-flash-image', ['a', 'b', 'c'], []), undefined).fits).toBe(
      false,
    );
    expect(referenceRoom(draft('imgvendor-3-pro-image', ['a', 'b', 'c'], []), undefined).fits).toBe(true);
  });

  it('a model that takes no references has no room; a draft with no model yet is not checked', () => {
    expect(referenceRoom(draft('text-model', [], [[]]), 0)).toEqual({ fits: false, limit: 0 });
    expect(referenceRoom(draft('', [], [[]]), 0).fits).toBe(true);
  });
});
