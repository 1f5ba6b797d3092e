import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LibraryFilter, LibraryImage, LibraryResult } from '../../src-shared/library-view';
import type { StudioApi } from '../../src-shared/studio-api';
import { refreshFollowing, useFollowHold, type FollowTarget } from '../library/library-follow';
import { useSelection } from '../library/library-selection';
import { windowKey } from '../library/library-windows';

const filter: LibraryFilter = { review: 'any', minStars: 0, sort: 'newest' };

const image = (id: string): LibraryImage => ({
  id,
  batchId: 'b',
  taskName: 'Batch',
  model: 'm',
  customId: id,
  prompt: id,
  createdAt: 1,
  mime: 'image/png',
  bytes: 1,
  mark: null,
  stars: 0,
});

/** The list's first window as the main process answers it: these ids, in this order. */
const list = (ids: string[]): LibraryResult => ({ total: ids.length, offset: 0, items: ids.map(image) });

const before = ['a', 'b', 'c', 'd', 'e', 'f'];
/** Two newer images came in above the rest. */
const after = ['n1', 'n2', ...before];

/** A studio that answers library.position from `ids`, once `release` is called; every call recorded. */
function studioWith(ids: string[]) {
  const asked: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const studio = {
    call: async (method: string, input: { id: string }) => {
      asked.push(`${method} ${input.id}`);
      await released;
      const at = ids.indexOf(input.id);
      return { index: at < 0 ? null : at };
    },
  } as unknown as StudioApi;
  return { studio, asked, release };
}

describe('the focus and the loupe when the list changes under them', () => {
  let client: QueryClient;
  let target: FollowTarget;
  beforeEach(() => {
    client = new QueryClient();
    client.setQueryData(windowKey(filter, 0), list(before));
    useSelection.setState({ focus: 3, anchor: 1, selected: new Set(), resolving: false });
    target = { filter, lightbox: 3, setLightbox: (i) => (target = { ...target, lightbox: i }) };
  });
  /** The list asked again: the new one comes. */
  const refreshTo = (ids: string[]) => async () => void client.setQueryData(windowKey(filter, 0), list(ids));

  it('stay on their image where images arrived above it, and the loupe holds it meanwhile', async () => {
    const { studio, asked, release } = studioWith(after);
    const done = refreshFollowing(studio, client, () => target, refreshTo(after));
    expect(useFollowHold.getState().at).toBe(3);
    await Promise.resolve();
    release();
    await done;
    // One question for the one image both are on.
    expect(asked).toEqual(['library.position d']);
    expect(useSelection.getState()).toMatchObject({ focus: 5, anchor: 3 });
    expect(target.lightbox).toBe(5);
    expect(useFollowHold.getState().at).toBeUndefined();
  });

  it('ask nothing where the list did not move under them', async () => {
    const { studio, asked, release } = studioWith(before);
    release();
    await refreshFollowing(studio, client, () => target, refreshTo([...before, 'older']));
    expect(asked).toEqual([]);
    expect(useSelection.getState().focus).toBe(3);
    expect(target.lightbox).toBe(3);
  });

  it('are not moved back where a key moved them while the place was asked', async () => {
    const { studio, release } = studioWith(after);
    const done = refreshFollowing(studio, client, () => target, refreshTo(after));
    await new Promise((r) => setTimeout(r, 0));
    // Right arrow in the loupe: both move on by one.
    useSelection.setState({ focus: 4, anchor: 4 });
    target.setLightbox(4);
    release();
    await done;
    expect(useSelection.getState().focus).toBe(4);
    expect(target.lightbox).toBe(4);
  });

  it('keep their place where the list no longer holds their image', async () => {
    const gone = ['n1', 'a', 'b', 'c', 'e', 'f'];
    const { studio, release } = studioWith(gone);
    release();
    await refreshFollowing(studio, client, () => target, refreshTo(gone));
    expect(useSelection.getState().focus).toBe(3);
    expect(target.lightbox).toBe(3);
  });
});
