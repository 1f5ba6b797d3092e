import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LibraryFilter, LibraryOverview, LibraryResult } from '../../src-shared/library-view';
import type { StudioApi } from '../../src-shared/studio-api';
import { StudioError } from '../../src-shared/studio-error';
import { queryKey, useStudioMutation } from '../app/studio-queries';
import { useStudio } from '../app/studio-context';
import {
  itemIn,
  marksFromEvent,
  marksWritten,
  pageOf,
  patchMarks,
  queueMarkWrite,
  windowInput,
  windowKey,
  WINDOW,
  type MarkPatch,
} from './library-windows';
import { recordMarkStep, type MarksBefore } from './library-mark-history';
import { LIBRARY_READS } from './use-library-away';
import { refreshFollowing, type FollowTarget } from './library-follow';
import { searchAhead } from './search-ahead';

/** A window no one has shown for this long leaves the cache, so scrolling 250,000 images stays small. */
const WINDOW_GC_MS = 60_000;
/** `library.mark` takes at most this many ids a call; a larger selection is marked in slices. */
const MARK_SLICE = 20_000;

/** A window of the list as the query cache keeps it: asked for by the gallery, the loupe and a place kept. */
export const windowQuery = (studio: StudioApi, filter: LibraryFilter, page: number) => ({
  queryKey: windowKey(filter, page),
  queryFn: async () => {
    await marksWritten();
    return studio.call('library.query', windowInput(filter, page));
  },
  gcTime: WINDOW_GC_MS,
});

/** How near a window's edge the lightbox asks for the next window, so stepping on does not wait. */
const LOOK_AHEAD = 5;

/**
 * The window an image is in (fetched when missing), and the image: for the lightbox and the
 * toolbar. With `lookAhead`, near a window's edge the neighbouring window is fetched too.
 */
export function useLibraryItem(filter: LibraryFilter, index: number | undefined, lookAhead = false) {
  const studio = useStudio();
  const page = pageOf(index ?? 0);
  const window = useQuery<LibraryResult, StudioError>({
    ...windowQuery(studio, filter, page),
    enabled: index !== undefined,
  });
  const at = (index ?? 0) - page * WINDOW;
  const neighbour = at >= WINDOW - LOOK_AHEAD ? page + 1 : at < LOOK_AHEAD && page > 0 ? page - 1 : undefined;
  const total = window.data?.total ?? 0;
  useQuery<LibraryResult, StudioError>({
    ...windowQuery(studio, filter, neighbour ?? page),
    enabled: lookAhead && neighbour !== undefined && neighbour * WINDOW < total,
  });
  return index === undefined ? undefined : itemIn(window.data, index);
}

/**
 * The list the gallery shows. After the filters change, the previous list stays on screen until the
 * new one's first window has arrived, so typing a search never blanks the gallery. The switch is a
 * transition: React draws the new list's cells in slices of a few milliseconds between frames, not
 * in the task that received the answer (a search at a million images held the page 92 to 158 ms).
 * The rows and the count come from the same window, and change in the same commit.
 */
export function useShownList(filter: LibraryFilter) {
  const studio = useStudio();
  const wanted = useQuery<LibraryResult, StudioError>(windowQuery(studio, filter, 0));
  const [shown, setShown] = useState(filter);
  const arrived = !!wanted.data && shown !== filter;
  useEffect(() => {
    if (arrived) startTransition(() => setShown(filter));
  }, [arrived, filter]);
  const head = useQuery<LibraryResult, StudioError>(windowQuery(studio, shown, 0));
  const client = useQueryClient();
  /**
   * Sets a new filter. Where its list's first window is already held (asked ahead while typing),
   * the filter and the list change in one transition: one drawing of the screen, rather than one
   * of the new filter and then, after its effect, one of the list.
   */
  const change = useCallback(
    (next: LibraryFilter, setFilter: (filter: LibraryFilter) => void) => {
      if (client.getQueryData(windowKey(next, 0)) === undefined) return setFilter(next);
      startTransition(() => {
        setFilter(next);
        setShown(next);
      });
    },
    [client],
  );
  return { shown, total: head.data?.total, error: wanted.error ?? head.error, change };
}

/**
 * Asks for a list's first window at once, without drawing anything: the filters call it as they
 * change, so the request leaves before React has drawn the new filter (12 to 25 ms of rendering at
 * a million images, in a trace of a search). The list's own query then finds it on its way.
 */
export function useAskList(): (filter: LibraryFilter) => Promise<void> {
  const studio = useStudio();
  const client = useQueryClient();
  return useCallback(
    (filter: LibraryFilter) => client.prefetchQuery(windowQuery(studio, filter, 0)),
    [studio, client],
  );
}

/**
 * Asks for a search's first window as each key is typed, while the typing pause still runs: at a
 * million images the answer (25 to 45 ms) then comes during the pause, and the list is drawn as
 * soon as the pause ends, rather than a request's time later. Nothing is drawn for the letters on
 * the way, and one request at most is out (search-ahead.ts).
 */
export function useAskAhead(): (filter: LibraryFilter) => void {
  const ask = useAskList();
  return useMemo(() => searchAhead(ask), [ask]);
}

/**
 * The windows covering pages `pages` of the shown list, by page, as far as they have arrived.
 * With `fetch` false (the gallery jumping by more than a screen at a time, its scroll bar
 * dragged) only windows already held are shown: a drag through a million images passes a new
 * window every frame, and asking for each, then drawing its cells a frame later for a place
 * already left, made the drag's frames 50 ms at p95. The places passed show placeholders; where
 * the list rests is asked for then. Scrolling by steps (wheel, keys) asks as it goes.
 */
export function useLibraryWindows(
  filter: LibraryFilter,
  pages: number[],
  fetch = true,
): Map<number, LibraryResult> {
  const studio = useStudio();
  return useQueries({
    queries: pages.map((page) => ({ ...windowQuery(studio, filter, page), enabled: fetch })),
    combine: (results) => {
      const windows = new Map<number, LibraryResult>();
      results.forEach((r, i) => r.data && windows.set(pages[i]!, r.data));
      return windows;
    },
  });
}

/**
 * Batches, models, boards, problems and the library's count. Asked for once the list's first
 * window is in (`listed`): the overview checks every folder first (110 ms at 5,000 folders), on
 * the thread that also serves the first thumbnails. The list no longer waits for that check (main
 * answers it from the catalog meanwhile), but asked together the check still held the thumbnails
 * back: the warm open of a million images took 0.28 s, not 0.15 s. A folder the check finds
 * changed is announced, and the list is asked again then.
 */
export function useLibraryOverview(listed: boolean) {
  const studio = useStudio();
  return useQuery<LibraryOverview, StudioError>({
    queryKey: queryKey('library.overview'),
    queryFn: () => studio.call('library.overview', {}),
    enabled: listed,
  });
}

/** How often the lists are asked again while a first build fills the catalog. */
const INDEXING_REFRESH_MS = 2000;
let lastIndexingRefresh = 0;

/**
 * What the main process says changed, applied without polling: marks go into the cached windows in
 * place (nothing is fetched), folders make the lists and the overview be asked again (the focus
 * and the loupe stay on their images: library-follow.ts), indexing progress goes into the overview.
 */
export function useLibraryLiveUpdates(follow: () => FollowTarget | undefined): void {
  const studio = useStudio();
  const client = useQueryClient();
  // Read when a change comes, not a reason to listen again: the screen passes a new one each render.
  const target = useRef(follow);
  target.current = follow;
  useEffect(() => {
    const refresh = () =>
      refreshFollowing(
        studio,
        client,
        () => target.current(),
        () => client.invalidateQueries({ queryKey: ['library.query'] }),
      );
    // Changes while the Library was not on screen were not heard: a visit asks the lists again, and
    // an image's detail and lineage (what it was made from, what was made from it) when next shown.
    for (const method of LIBRARY_READS) void client.invalidateQueries({ queryKey: [method] });
    return studio.on('library.changed', (change) => {
      if (change.reason === 'marks') {
        patchMarks(
          client,
          marksFromEvent(change.marks ?? [], (id) => marksInFlight.has(id)),
        );
      } else if (change.reason === 'indexing') {
        client.setQueryData<LibraryOverview>(queryKey('library.overview'), (overview) =>
          overview ? { ...overview, indexing: change.indexing ?? null } : overview,
        );
        // The lists grow as folders are read: asked again now and then, not at every step (a
        // window of a million-image build would otherwise be fetched several times a second).
        if (change.indexing && Date.now() - lastIndexingRefresh >= INDEXING_REFRESH_MS) {
          lastIndexingRefresh = Date.now();
          void refresh();
        }
      } else {
        void refresh();
        void client.invalidateQueries({ queryKey: ['library.overview'] });
        void client.invalidateQueries({ queryKey: ['library.detail'] });
        // A batch that arrived may be made from an image shown: its "Used in" grows.
        void client.invalidateQueries({ queryKey: ['library.lineage'] });
      }
    });
  }, [studio, client]);
}

/**
 * Ids with a mark on its way to disk from this window, counted per call. The echo of an earlier
 * call must not undo a later key press on the same image (P then X quickly): the screen already
 * shows the newest choice, and the last call's own echo arrives once nothing is in flight.
 */
const marksInFlight = new Map<string, number>();

function track(ids: string[], delta: 1 | -1) {
  for (const id of ids) {
    const n = (marksInFlight.get(id) ?? 0) + delta;
    if (n > 0) marksInFlight.set(id, n);
    else marksInFlight.delete(id);
  }
}

/**
 * Marks: shown at once in every cached window, then written by `library.mark`, one call after
 * another in key order. Each is a step Ctrl+Z can take back (`record: false` for the undo's own
 * writes): the marks main has just before the write are read in the same turn, so the step knows
 * exactly what to put back, whether or not the images were on screen. `join` makes a write part
 * of the step before it (queued in order, so that step is recorded first).
 */
export function useMarks(onError: (error: StudioError) => void) {
  const client = useQueryClient();
  // Mutations like every screen's writes; the lists follow from the cache patch and the event.
  const { mutateAsync: readMarks } = useStudioMutation('library.marksOf');
  const { mutateAsync: writeMarks } = useStudioMutation('library.mark');
  return useCallback(
    (
      ids: string[],
      change: MarkPatch,
      { record = true, join = false }: { record?: boolean; join?: boolean } = {},
    ) => {
      if (!ids.length) return;
      patchMarks(client, new Map(ids.map((id) => [id, change])));
      track(ids, 1);
      queueMarkWrite(async () => {
        try {
          const before: MarksBefore = [];
          for (let at = 0; at < ids.length; at += MARK_SLICE) {
            const slice = ids.slice(at, at + MARK_SLICE);
            if (record) before.push(...(await readMarks({ ids: slice })));
            await writeMarks({ ids: slice, ...change });
          }
          if (record) recordMarkStep({ writes: [{ ids, after: change }], before }, join);
        } catch (err) {
          onError(StudioError.from(err));
          // What is on disk is the truth: the lists are asked again, since the shown marks are not.
          void client.invalidateQueries({ queryKey: ['library.query'] });
        } finally {
          track(ids, -1);
        }
      });
    },
    [client, onError, readMarks, writeMarks],
  );
}

/** What the marks function is: the gallery, the toolbar and the loupe all mark through it. */
export type MarkFn = ReturnType<typeof useMarks>;
