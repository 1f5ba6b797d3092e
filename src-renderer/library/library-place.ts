import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { libraryFilterSchema, type LibraryFilter } from '../../src-shared/library-view';
import { useStudio } from '../app/studio-context';
import { useSelection } from './library-selection';
import { windowQuery } from './library-hooks';
import { movedTo } from './library-follow';
import { cachedItemAt, pageOf } from './library-windows';

const KEY = 'studio.libraryPlace';
/** A larger selection is not kept across a reload: the page's storage is small, and so is its use. */
const MAX_KEPT_IDS = 5_000;

interface Place {
  filter: LibraryFilter;
  focus: number;
  /** The focused image itself: batches that came in above it meanwhile moved it down. */
  focusId?: string;
  selected: string[];
}

/**
 * Where the Library was in this window: its filter, the focused place and the selection, so a
 * reload (or a visit to another screen and back) comes back to the same image. Per window (session
 * storage): a second window starts on its own.
 */
export function savedPlace(): Place | undefined {
  try {
    const raw = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<Place> | null;
    if (!raw) return undefined;
    const filter = libraryFilterSchema.safeParse(raw.filter);
    if (!filter.success) return undefined;
    return {
      filter: filter.data as LibraryFilter,
      focus: Number.isInteger(raw.focus) && raw.focus! >= 0 ? raw.focus! : 0,
      focusId: typeof raw.focusId === 'string' ? raw.focusId : undefined,
      selected: Array.isArray(raw.selected) ? raw.selected.filter((id) => typeof id === 'string') : [],
    };
  } catch {
    // A damaged entry is a fresh start, not an error anyone needs to see.
    return undefined;
  }
}

/**
 * Puts the saved focus and selection back once, then keeps the place written as it changes. The
 * focus comes back to its place at once, then moves to where its image is now, if batches that
 * arrived meanwhile moved it.
 */
export function useKeptPlace(filter: LibraryFilter): void {
  const studio = useStudio();
  const client = useQueryClient();
  useEffect(() => {
    const saved = savedPlace();
    const focus = saved?.focus ?? 0;
    useSelection.setState({
      focus,
      anchor: focus,
      selected: new Set(saved?.selected ?? []),
      resolving: false,
    });
    const id = saved?.focusId;
    if (!saved || !id) return;
    // Its window is the one the gallery shows first (the focus is scrolled to): asked once, and
    // the place asked of main only where another image is there now.
    void client
      .ensureQueryData(windowQuery(studio, saved.filter, pageOf(focus)))
      .then(() => movedTo(studio, client, saved.filter, id, focus))
      .then((index) => {
        // Unless a key or a click moved it meanwhile.
        if (index !== null && useSelection.getState().focus === focus)
          useSelection.setState({ focus: index, anchor: index });
      })
      .catch(() => undefined);
  }, [studio, client]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let kept = savedPlace();
    const write = () => {
      const { focus, selected } = useSelection.getState();
      // Not known before the list's window is loaded (just after a reload): the one kept stays.
      const focusId =
        cachedItemAt(client, filter, focus)?.id ?? (kept?.focus === focus ? kept.focusId : undefined);
      const place: Place = {
        filter,
        focus,
        focusId,
        selected: selected.size <= MAX_KEPT_IDS ? [...selected] : [],
      };
      kept = place;
      try {
        sessionStorage.setItem(KEY, JSON.stringify(place));
      } catch {
        // Storage full or refused: the place is simply not kept.
      }
    };
    write();
    const off = useSelection.subscribe(() => {
      clearTimeout(timer);
      timer = setTimeout(write, 200);
    });
    return () => {
      clearTimeout(timer);
      write();
      off();
    };
  }, [filter, client]);
}
