import { create } from 'zustand';
import type { LibraryFilter } from '../../../src-shared/library-view';
import type { WhatWorkedQuery } from '../../../src-shared/what-worked';

type MarksBy = NonNullable<WhatWorkedQuery['marksBy']>;

interface WhatWorkedState {
  open: boolean;
  /** The variables (or 'model') the rows are by, in the order chosen; none yet: the first variable. */
  by?: string[];
  marksBy: MarksBy;
  /**
   * The Library filter the view was on when a row was opened, and the row's filter it then showed
   * (as JSON): opened again over that row, the view shows the table it came from.
   */
  back?: { shown: string; filter: LibraryFilter };
}

/**
 * Whether "What worked" is open over the Library, and how it groups: kept while the window lives,
 * so opening it again after a look at a row's images shows the same table.
 */
export const useWhatWorked = create<WhatWorkedState>(() => ({ open: false, marksBy: 'everyone' }));

export const openWhatWorked = () => useWhatWorked.setState({ open: true });
export const closeWhatWorked = () => useWhatWorked.setState({ open: false });
