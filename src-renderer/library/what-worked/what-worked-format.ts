import type { LibraryFilter } from '../../../src-shared/library-view';
import { WHAT_WORKED_MODEL, type WhatWorkedQuery, type WhatWorkedRow } from '../../../src-shared/what-worked';

/** A share (0..1) as a whole percentage. */
export const percent = (share: number) => Math.round(share * 100);

/** A row's identity: its values in the order of `by`. */
export const rowKey = (row: Pick<WhatWorkedRow, 'values'>, by: readonly string[]) =>
  JSON.stringify(by.map((name) => row.values[name] ?? ''));

/**
 * The view's query for a Library filter. The review filters are left out: under "picked only"
 * every row would read 100 %, which says nothing about what worked.
 */
export function whatWorkedQuery(
  filter: LibraryFilter,
  by: string[],
  marksBy: NonNullable<WhatWorkedQuery['marksBy']>,
): WhatWorkedQuery {
  const { review: _review, whose: _whose, agreement: _agreement, minPicks: _minPicks, ...rest } = filter;
  return { ...rest, review: 'any', minStars: 0, by, marksBy };
}

/**
 * The Library filter that shows exactly a row's images: the view's own filter, narrowed to the row's
 * model and parts (a value of '' is "no value for this part").
 */
export function rowFilter(query: WhatWorkedQuery, row: Pick<WhatWorkedRow, 'values'>): LibraryFilter {
  const { by: _by, marksBy: _marksBy, ...filter } = query;
  const parts = { ...filter.parts };
  let model = filter.model;
  for (const [name, value] of Object.entries(row.values)) {
    if (name === WHAT_WORKED_MODEL) model = value;
    else parts[name] = value;
  }
  return { ...filter, model, parts: Object.keys(parts).length ? parts : undefined };
}

/** The Library's review filter that shows the picked images under a view's marks. */
export function pickedFilter(query: WhatWorkedQuery): LibraryFilter {
  const { by: _by, marksBy, ...filter } = query;
  return {
    ...filter,
    review: 'picked',
    whose: marksBy === 'mine' ? 'mine' : 'anyone',
    agreement: marksBy === 'agreement' ? 'agree' : undefined,
  };
}

/**
 * A filter as comparable text: keys sorted, unset ones left out, so the same filter read back from
 * the saved place (or built in another order) is the same.
 */
export function filterKey(filter: LibraryFilter): string {
  const sorted = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, v]) => [k, sorted(v)]),
        )
      : value;
  return JSON.stringify(sorted(filter));
}
