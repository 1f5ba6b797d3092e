import type { QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import type { LibraryFilter } from '../../src-shared/library-view';
import type { StudioApi } from '../../src-shared/studio-api';
import { StudioError } from '../../src-shared/studio-error';
import { cachedItemAt, idsBetween } from './library-windows';

interface SelectionState {
  /** Selected images by id: a selection outlives the windows its images were seen in. */
  selected: ReadonlySet<string>;
  /** Place in the list of the focused cell, and of the cell a Shift range starts from. */
  focus: number;
  anchor: number;
  /** A range or select-all is waiting for ids from the main process; actions wait for it. */
  resolving: boolean;
}

const initial: SelectionState = { selected: new Set(), focus: 0, anchor: 0, resolving: false };

/**
 * The gallery's selection and focus, outside React's props so a change draws only the cells whose
 * own state changed (each cell reads `selected.has(its id)` and `focus === its place`).
 */
export const useSelection = create<SelectionState>(() => initial);

/** What the gallery works on: where its ids come from. */
export interface SelectionSource {
  studio: StudioApi;
  client: QueryClient;
  filter: LibraryFilter;
  total: number;
}

/** Counts async answers, so an older range arriving late cannot replace a newer choice. */
let generation = 0;

export function resetSelection(keepSelected: boolean): void {
  generation++;
  useSelection.setState((s) => ({ ...initial, selected: keepSelected ? s.selected : new Set() }));
}

export function focusCell(index: number): void {
  useSelection.setState({ focus: index });
}

/** A plain click or arrow: this image alone. */
export function selectOnly(source: SelectionSource, index: number): void {
  generation++;
  const id = cachedItemAt(source.client, source.filter, index)?.id;
  useSelection.setState({ focus: index, anchor: index, selected: new Set(id ? [id] : []), resolving: false });
}

/** Ctrl/Cmd+click: this image in or out, the rest as it was. */
export function toggleOne(source: SelectionSource, index: number): void {
  const id = cachedItemAt(source.client, source.filter, index)?.id;
  if (!id) return;
  const selected = new Set(useSelection.getState().selected);
  if (selected.has(id)) selected.delete(id);
  else selected.add(id);
  useSelection.setState({ focus: index, anchor: index, selected });
}

/** Every image from `first` to `last`, loaded or not; reports a failed `library.ids` through onError. */
async function selectSpan(
  source: SelectionSource,
  first: number,
  last: number,
  onError: (error: StudioError) => void,
): Promise<void> {
  const ticket = ++generation;
  useSelection.setState({ resolving: true });
  try {
    const ids = await idsBetween(source.studio, source.client, source.filter, first, last);
    if (ticket === generation) useSelection.setState({ selected: new Set(ids), resolving: false });
  } catch (err) {
    if (ticket !== generation) return;
    useSelection.setState({ resolving: false });
    onError(StudioError.from(err));
  }
}

/** Shift+click or Shift+arrow: the range from the anchor to here. */
export function extendTo(source: SelectionSource, index: number, onError: (e: StudioError) => void): void {
  const { anchor } = useSelection.getState();
  useSelection.setState({ focus: index });
  void selectSpan(source, Math.min(anchor, index), Math.max(anchor, index), onError);
}

/** Ctrl/Cmd+A: the whole filtered list, which may be far more than the windows loaded. */
export function selectAll(source: SelectionSource, onError: (e: StudioError) => void): void {
  if (source.total > 0) void selectSpan(source, 0, source.total - 1, onError);
}

export function clearSelection(): void {
  generation++;
  useSelection.setState({ selected: new Set(), resolving: false });
}

/** What an action works on: the selection, else the focused image. */
export function selectionTargets(source: Pick<SelectionSource, 'client' | 'filter'>): string[] {
  const { selected, focus } = useSelection.getState();
  if (selected.size) return [...selected];
  const id = cachedItemAt(source.client, source.filter, focus)?.id;
  return id ? [id] : [];
}
