import type { QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import type { LibraryFilter } from '../../src-shared/library-view';
import type { StudioApi } from '../../src-shared/studio-api';
import { useSelection } from './library-selection';
import { cachedItemAt } from './library-windows';

/** What the Library shows now: its list, and the loupe's place in it when the loupe is open. */
export interface FollowTarget {
  filter: LibraryFilter;
  lightbox?: number;
  setLightbox(index: number): void;
}

/**
 * The loupe's place while the list is asked again and its image's new place is not known yet: the
 * loupe keeps the image it shows there rather than the one that has come to the place meanwhile.
 */
export const useFollowHold = create<{ at?: number }>(() => ({}));
/** Counts refreshes, so one that ends does not let go of a hold a later one has taken. */
let holds = 0;

/**
 * Where the image `id` is now, asked of the main process, if the cached list has another image at
 * `at` (its window loaded); null where it is still there, or no longer in the list.
 */
export function movedTo(
  studio: StudioApi,
  client: QueryClient,
  filter: LibraryFilter,
  id: string,
  at: number,
): Promise<number | null> {
  if (cachedItemAt(client, filter, at)?.id === id) return Promise.resolve(null);
  return studio
    .call('library.position', { ...filter, id })
    .then((p) => p.index)
    .catch(() => null);
}

/**
 * Asks the list again (`refresh`) with the focus and the loupe kept on their images, by id, not on
 * their places: a batch that arrives above them (a colleague's, through the shared folder, newest
 * first) moves every image below it down, and a culling pass must not go on, key by key, on
 * images it did not mean. Where the new list has another image at the place, the image's new place
 * is asked of the main process (`library.position`: a count, up to 0.2 s deep in a million), and
 * taken only if nothing moved the place meanwhile (a key, another filter). Most changes move
 * nothing (a folder's hashes written, a colleague's marks) and ask nothing. An image the list no
 * longer holds leaves its place as it was: the next one comes to it.
 */
export async function refreshFollowing(
  studio: StudioApi,
  client: QueryClient,
  follow: () => FollowTarget | undefined,
  refresh: () => Promise<unknown>,
): Promise<void> {
  const target = follow();
  const filter = target?.filter;
  const { focus, anchor } = useSelection.getState();
  const focused = filter && cachedItemAt(client, filter, focus)?.id;
  const loupe =
    filter && target.lightbox !== undefined ? cachedItemAt(client, filter, target.lightbox)?.id : undefined;
  if (!filter || (!focused && !loupe)) return void (await refresh());
  const hold = ++holds;
  if (loupe) useFollowHold.setState({ at: target.lightbox });
  try {
    await refresh();
    // The focus and the loupe are mostly on one image: asked once.
    const asked = new Map<string, Promise<number | null>>();
    const placeOf = (id: string | undefined, at: number | undefined): Promise<number | null> => {
      if (!id || at === undefined) return Promise.resolve(null);
      const place = asked.get(id) ?? movedTo(studio, client, filter, id, at);
      asked.set(id, place);
      return place;
    };
    const [focusAt, loupeAt] = await Promise.all([placeOf(focused, focus), placeOf(loupe, target.lightbox)]);
    const now = follow();
    if (!now || JSON.stringify(now.filter) !== JSON.stringify(filter)) return;
    const selection = useSelection.getState();
    if (focusAt !== null && selection.focus === focus && selection.anchor === anchor)
      useSelection.setState({ focus: focusAt, anchor: Math.max(0, anchor + focusAt - focus) });
    if (loupeAt !== null && now.lightbox === target.lightbox) now.setLightbox(loupeAt);
  } finally {
    if (hold === holds) useFollowHold.setState({ at: undefined });
  }
}
