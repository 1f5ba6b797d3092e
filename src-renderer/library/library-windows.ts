import type { QueryClient } from '@tanstack/react-query';
import type {
  LibraryFilter,
  LibraryImage,
  LibraryMarkChange,
  LibraryQuery,
  LibraryResult,
} from '../../src-shared/library-view';
import type { TeamMarks } from '../../src-shared/person';
import type { StudioApi } from '../../src-shared/studio-api';
import { queryKey } from '../app/studio-queries';

/**
 * The gallery's list lives in the query cache as windows of WINDOW images, keyed by the filter and
 * the window's offset: the grid asks for the windows its visible rows need, the lightbox for the one
 * its image is in, and the same cached window serves both. Nothing ever holds the whole list.
 */
export const WINDOW = 200;

export type MarkPatch = { mark?: LibraryImage['mark']; stars?: number };

/**
 * A mark change as the cache takes it: with `team`, the team's marks as the main process now counts
 * them (null: nobody else has marked it), which only its events know; a key press leaves it out.
 */
type CachePatch = MarkPatch & { team?: TeamMarks | null };

/** Marks on their way to disk, one call at a time in key-press order (so the last choice is written last). */
let markWrites = Promise.resolve();

/** Queues one mark write; `write` reports its own failure and never rejects. */
export function queueMarkWrite(write: () => Promise<void>): void {
  markWrites = markWrites.then(write);
}

/**
 * Resolves once every mark asked for so far is on disk. Whatever reads marks back (a window of a
 * "picked" list, ids for select-all, an export's manifest, a knowledge-base push with its rating)
 * waits for it, so it never overtakes a key press made before it.
 */
export const marksWritten = (): Promise<void> => markWrites;

export const windowInput = (filter: LibraryFilter, page: number): LibraryQuery => ({
  ...filter,
  offset: page * WINDOW,
  limit: WINDOW,
});

export const windowKey = (filter: LibraryFilter, page: number) =>
  queryKey('library.query', windowInput(filter, page));

export const pageOf = (index: number) => Math.floor(index / WINDOW);

/** Windows covering images `first` to `last` (inclusive), in order. */
export function pagesCovering(first: number, last: number): number[] {
  const pages: number[] = [];
  for (let p = pageOf(Math.max(0, first)); p <= pageOf(Math.max(0, last)); p++) pages.push(p);
  return pages;
}

export function itemIn(window: LibraryResult | undefined, index: number): LibraryImage | undefined {
  return window ? window.items[index - window.offset] : undefined;
}

/** The image at a place in the list, if its window is in the cache; never fetches. */
export function cachedItemAt(client: QueryClient, filter: LibraryFilter, index: number) {
  return itemIn(client.getQueryData<LibraryResult>(windowKey(filter, pageOf(index))), index);
}

/**
 * Ids of images `first` to `last` (inclusive) of the list: from the cache when every window they
 * are in is there, else from `library.ids`, which answers a range without sending the images.
 */
export async function idsBetween(
  studio: StudioApi,
  client: QueryClient,
  filter: LibraryFilter,
  first: number,
  last: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (const page of pagesCovering(first, last)) {
    const window = client.getQueryData<LibraryResult>(windowKey(filter, page));
    const from = Math.max(first, page * WINDOW);
    const to = Math.min(last, page * WINDOW + WINDOW - 1);
    if (!window || window.offset + window.items.length <= to) {
      await marksWritten();
      return studio.call('library.ids', { ...filter, start: first, end: last + 1 });
    }
    for (let i = from; i <= to; i++) ids.push(window.items[i - window.offset]!.id);
  }
  return ids;
}

/** Whether a list's membership or order depends on marks, so a mark can make its windows wrong. */
const dependsOnMarks = (input: LibraryQuery) =>
  (input.review ?? 'any') !== 'any' ||
  (input.minStars ?? 0) > 0 ||
  input.sort === 'stars' ||
  !!input.agreement ||
  !!input.minPicks;

/**
 * Writes marks into every cached window, in place: only the windows holding those images change,
 * and in them only those images, so only their cells draw again. Nothing is fetched. Windows of
 * lists that a mark could reorder or filter, and that no one shows now, are marked stale so they
 * are asked again when next shown (the visible list stays as it is while one culls).
 */
export function patchMarks(client: QueryClient, changes: Map<string, CachePatch>): void {
  if (!changes.size) return;
  client.setQueriesData<LibraryResult>({ queryKey: ['library.query'] }, (window) => {
    if (!window) return window;
    let changed = false;
    const items = window.items.map((item) => {
      const patch = changes.get(item.id);
      if (!patch) return item;
      const mark = patch.mark !== undefined ? patch.mark : item.mark;
      const stars = patch.stars ?? item.stars;
      const team = patch.team === undefined ? item.team : (patch.team ?? undefined);
      if (mark === item.mark && stars === item.stars && team === item.team) return item;
      changed = true;
      const next = { ...item, mark, stars, team };
      if (!team) delete next.team;
      return next;
    });
    return changed ? { ...window, items } : window;
  });
  void client.invalidateQueries({
    queryKey: ['library.query'],
    type: 'inactive',
    refetchType: 'none',
    predicate: (query) => dependsOnMarks((query.queryKey[1] ?? {}) as LibraryQuery),
  });
}

/**
 * A marks event as patches. An image with this person's own mark still on its way (`inFlight`)
 * takes only the team's marks from it: the screen already shows the newest key press, which an
 * earlier write's echo must not undo, but the others' marks it carries are news either way.
 */
export const marksFromEvent = (marks: LibraryMarkChange[], inFlight: (id: string) => boolean = () => false) =>
  new Map<string, CachePatch>(
    marks.map((m) => [
      m.id,
      inFlight(m.id) ? { team: m.team ?? null } : { mark: m.mark, stars: m.stars, team: m.team ?? null },
    ]),
  );

/**
 * Images by id, for compare: from any cached window first, then one `library.detail` per image the
 * cache no longer holds (a window dropped after scrolling far away).
 */
export async function imagesById(
  studio: StudioApi,
  client: QueryClient,
  ids: string[],
): Promise<LibraryImage[]> {
  const found = new Map<string, LibraryImage>();
  for (const [, window] of client.getQueriesData<LibraryResult>({ queryKey: ['library.query'] })) {
    for (const item of window?.items ?? []) if (ids.includes(item.id)) found.set(item.id, item);
  }
  return Promise.all(ids.map(async (id) => found.get(id) ?? studio.call('library.detail', { id })));
}
