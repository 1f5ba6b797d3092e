import { describe, expect, it } from 'vitest';
import { WHAT_WORKED_MODEL } from '../../src-shared/what-worked';
import {
  filterKey,
  pickedFilter,
  rowFilter,
  rowKey,
  whatWorkedQuery,
} from '../library/what-worked/what-worked-format';

describe('What worked: the filters it asks and opens', () => {
  const library = {
    batchId: 'b1',
    review: 'picked' as const,
    whose: 'anyone' as const,
    minStars: 3,
    search: 'fox',
  };

  it('counts every mark: the review filters of the Library are left out of its query', () => {
    const query = whatWorkedQuery(library, ['surface'], 'mine');
    expect(query).toEqual({
      batchId: 'b1',
      search: 'fox',
      review: 'any',
      minStars: 0,
      by: ['surface'],
      marksBy: 'mine',
    });
  });

  it('opens a row as the query narrowed to its model and parts, an image without the part as ""', () => {
    const query = whatWorkedQuery(
      { ...library, parts: { light: 'dusk' } },
      ['surface', WHAT_WORKED_MODEL],
      'everyone',
    );
    const row = { values: { surface: '', [WHAT_WORKED_MODEL]: 'imgvendor-3-pro-image' } };
    expect(rowFilter(query, row)).toEqual({
      batchId: 'b1',
      search: 'fox',
      review: 'any',
      minStars: 0,
      model: 'imgvendor-3-pro-image',
      parts: { light: 'dusk', surface: '' },
    });
    expect(rowKey(row, ['surface', WHAT_WORKED_MODEL])).toBe('["","imgvendor-3-pro-image"]');
  });

  it('shows the picks under the same marks the table counted', () => {
    const query = whatWorkedQuery(library, ['surface'], 'agreement');
    expect(pickedFilter(query)).toMatchObject({ review: 'picked', whose: 'anyone', agreement: 'agree' });
    expect(pickedFilter(whatWorkedQuery(library, ['surface'], 'mine'))).toMatchObject({ whose: 'mine' });
  });

  it('compares filters whatever their keys’ order and unset keys', () => {
    expect(filterKey({ search: 'a', batchId: 'b', model: undefined, parts: { y: '1', x: '2' } })).toBe(
      filterKey({ batchId: 'b', parts: { x: '2', y: '1' }, search: 'a' }),
    );
    expect(filterKey({ parts: { x: '1' } })).not.toBe(filterKey({ parts: { x: '2' } }));
  });
});
