import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { LibraryFilter, LibraryImage, LibraryResult } from '../../src-shared/library-view';
import type { StudioApi } from '../../src-shared/studio-api';
import {
  idsBetween,
  marksWritten,
  patchMarks,
  queueMarkWrite,
  WINDOW,
  windowKey,
  type MarkPatch,
} from '../library/library-windows';

const filter: LibraryFilter = { review: 'any', minStars: 0, sort: 'newest' };

const image = (n: number): LibraryImage => ({
  id: `img-${n}`,
  batchId: 'b',
  taskName: 'Batch',
  model: 'm',
  customId: `c-${n}`,
  prompt: `prompt ${n}`,
  createdAt: n,
  mime: 'image/png',
  bytes: 1,
  mark: null,
  stars: 0,
});

/** A window of the list as the main process answers it, for a list of `total` images. */
function windowOf(page: number, total: number): LibraryResult {
  const offset = page * WINDOW;
  const count = Math.max(0, Math.min(WINDOW, total - offset));
  return { total, offset, items: Array.from({ length: count }, (_, i) => image(offset + i)) };
}

/** Only what these functions may call; every call is recorded. */
function studioAnswering(ids: string[]) {
  const calls: { method: string; input: unknown }[] = [];
  const studio = {
    call: async (method: string, input: unknown) => {
      calls.push({ method, input });
      return ids;
    },
  } as unknown as StudioApi;
  return { studio, calls };
}

describe('the windowed library cache', () => {
  it('writes a mark into the cached windows in place: only that image is new, nothing else changes', () => {
    const client = new QueryClient();
    client.setQueryData(windowKey(filter, 0), windowOf(0, 450));
    client.setQueryData(windowKey(filter, 1), windowOf(1, 450));
    const picked = { ...filter, review: 'picked' as const };
    client.setQueryData(windowKey(picked, 0), windowOf(0, 3));
    const before0 = client.getQueryData<LibraryResult>(windowKey(filter, 0))!;
    const before1 = client.getQueryData<LibraryResult>(windowKey(filter, 1))!;

    patchMarks(client, new Map<string, MarkPatch>([['img-205', { mark: 'picked' }]]));

    const after0 = client.getQueryData<LibraryResult>(windowKey(filter, 0))!;
    const after1 = client.getQueryData<LibraryResult>(windowKey(filter, 1))!;
    expect(after0).toBe(before0);
    expect(after1).not.toBe(before1);
    expect(after1.items[5]).toMatchObject({ id: 'img-205', mark: 'picked', stars: 0 });
    expect(after1.items.filter((item, i) => item !== before1.items[i])).toHaveLength(1);
    // A "picked" list no one shows may now be wrong: asked again when next shown, not now.
    expect(client.getQueryState(windowKey(picked, 0))!.isInvalidated).toBe(true);
    expect(client.getQueryState(windowKey(filter, 1))!.isInvalidated).toBe(false);

    // The same marks again (the main process's echo) change nothing at all.
    patchMarks(client, new Map<string, MarkPatch>([['img-205', { mark: 'picked', stars: 0 }]]));
    expect(client.getQueryData(windowKey(filter, 1))).toBe(after1);
  });

  it('takes a range from the cache when loaded, and asks library.ids for the rest', async () => {
    const client = new QueryClient();
    client.setQueryData(windowKey(filter, 0), windowOf(0, 450));
    client.setQueryData(windowKey(filter, 1), windowOf(1, 450));
    const { studio, calls } = studioAnswering(['from-main']);

    const loaded = await idsBetween(studio, client, filter, 195, 204);
    expect(loaded).toEqual(Array.from({ length: 10 }, (_, i) => `img-${195 + i}`));
    expect(calls).toHaveLength(0);

    const reaching = await idsBetween(studio, client, filter, 10, 420);
    expect(reaching).toEqual(['from-main']);
    expect(calls).toEqual([{ method: 'library.ids', input: { ...filter, start: 10, end: 421 } }]);
  });

  it('lets reads wait for the marks asked before them', async () => {
    const order: string[] = [];
    let release!: () => void;
    queueMarkWrite(
      () =>
        new Promise<void>((resolve) => {
          release = () => {
            order.push('mark written');
            resolve();
          };
        }),
    );
    const read = marksWritten().then(() => order.push('read'));
    await Promise.resolve();
    expect(order).toEqual([]);
    release();
    await read;
    expect(order).toEqual(['mark written', 'read']);
  });
});
