import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { promptsFolder } from './helpers/batch-folders';
import { personMarksOnDisk } from './helpers/marks-on-disk';
import { catalogFileOf, testCatalog } from './helpers/test-catalog';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

const png = await sharp({ create: { width: 16, height: 9, channels: 3, background: '#4a7' } })
  .png()
  .toBuffer();

/** A batch folder as the studio writes one: batch.json, and its images. */
const batchFolder = (root: string, name: string, prompts: string[], createdAt?: number) =>
  promptsFolder(root, name, prompts, png, createdAt);

const library = () => mkdtempSync(join(tmpdir(), 'catalog-'));

describe('the library catalog', () => {
  it('answers windows of the filtered list, its ids in the same order, and counts from the catalog', async () => {
    const root = library();
    for (let b = 0; b < 5; b++)
      batchFolder(
        root,
        `batch ${b}`,
        Array.from({ length: 40 }, (_, i) => (i % 4 ? `still life ${b}-${i}` : `青花瓷杯 ${b}-${i}`)),
        1_790_000_000 + b,
      );
    const catalog = testCatalog(() => root);
    const first = await catalog.query({ limit: 30 });
    expect(first.total).toBe(200);
    expect(first.items).toHaveLength(30);
    // Newest batch first, each batch in its own order.
    expect(first.items[0]!.prompt).toBe('青花瓷杯 4-0');
    expect(first.items[0]!.mime).toBe('image/png');
    const next = await catalog.query({ offset: 30, limit: 30 });
    const ids = await catalog.ids({ start: 0, end: 60 });
    expect(ids).toEqual([...first.items, ...next.items].map((i) => i.id));
    expect(await catalog.ids({})).toHaveLength(200);
    // A window past the middle is read from the end: the same images, in the same order.
    for (const sort of ['newest', 'oldest', 'stars', 'prompt'] as const) {
      const all = await catalog.ids({ sort });
      const late = await catalog.query({ sort, offset: 150, limit: 60 });
      expect(late.items.map((i) => i.id)).toEqual(all.slice(150, 210));
      const found = await catalog.ids({ sort, search: 'life' });
      expect(
        (await catalog.query({ sort, search: 'life', offset: 100, limit: 7 })).items.map((i) => i.id),
      ).toEqual(found.slice(100, 107));
    }
    // Oldest first: the oldest batch first, still each batch in its own order.
    expect((await catalog.query({ sort: 'oldest', limit: 3 })).items.map((i) => i.prompt)).toEqual([
      '青花瓷杯 0-0',
      'still life 0-1',
      'still life 0-2',
    ]);
    // Stars, then newest: the starred first (most stars first), then every other image newest first.
    const newest = await catalog.ids({});
    const starred = { [newest[120]!]: 5, [newest[7]!]: 3, [newest[150]!]: 3 };
    for (const [id, stars] of Object.entries(starred)) await catalog.mark([id], { stars });
    const byStars = [newest[120], newest[7], newest[150], ...newest.filter((id) => !starred[id])];
    expect(await catalog.ids({ sort: 'stars' })).toEqual(byStars);
    for (const [offset, limit] of <[number, number][]>[
      [0, 5],
      [2, 3],
      [180, 40],
    ])
      expect((await catalog.query({ sort: 'stars', offset, limit })).items.map((i) => i.id)).toEqual(
        byStars.slice(offset, offset + limit),
      );
    expect((await catalog.query({ sort: 'stars', minStars: 3 })).items.map((i) => i.stars)).toEqual([
      5, 3, 3,
    ]);
    // A two-character Chinese word, which a trigram index alone cannot find.
    expect((await catalog.query({ search: '青花' })).total).toBe(50);
    expect((await catalog.query({ search: '青花瓷', batchId: 'imgbatch_batch 2' })).total).toBe(10);
    const overview = await catalog.overview();
    expect(overview.images).toBe(200);
    expect(overview.batches.map((b) => b.taskName)).toEqual([
      'batch 4',
      'batch 3',
      'batch 2',
      'batch 1',
      'batch 0',
    ]);
    catalog.close();
  });

  it('keeps the length of a list between its windows, and counts again after a mark or a new folder', async () => {
    const root = library();
    batchFolder(root, 'first', ['a cup', 'a bowl', 'a jug']);
    const catalog = testCatalog(() => root);
    const picked = async () => (await catalog.query({ review: 'picked', limit: 1 })).total;
    expect(await picked()).toBe(0);
    const [cup, bowl] = (await catalog.query({})).items;
    await catalog.mark([cup!.id, bowl!.id], { mark: 'picked' });
    expect(await picked()).toBe(2);
    await catalog.mark([bowl!.id], { mark: 'rejected' });
    expect(await picked()).toBe(1);
    expect((await catalog.query({ search: 'cup' })).total).toBe(1);
    batchFolder(root, 'second', ['another cup'], 1_790_000_100);
    await catalog.sync();
    expect((await catalog.query({ search: 'cup' })).total).toBe(2);
    expect((await catalog.query({ offset: 2, limit: 2 })).total).toBe(4);
    catalog.close();
  });

  it('a start reads only the folders that changed, and marks write through without a re-read', async () => {
    const root = library();
    batchFolder(root, 'kept', ['a lighthouse', 'a pier']);
    batchFolder(root, 'changed', ['a gull']);
    const first = testCatalog(() => root);
    expect(await first.sync()).toBe(true);
    const [id] = await first.ids({ search: 'lighthouse' });
    const marks = await first.mark([id!], { mark: 'picked', stars: 4 });
    expect(marks).toEqual([{ id, mark: 'picked', stars: 4 }]);
    expect(personMarksOnDisk(join(root, 'kept')).images['images/row-1.png']).toEqual({
      mark: 'picked',
      stars: 4,
    });
    // The marks file the catalog wrote is not a change to read again.
    expect(await first.sync()).toBe(false);
    first.close();

    batchFolder(root, 'changed', ['a gull', 'a tern']);
    const again = testCatalog(() => root);
    expect((await again.query({ review: 'picked' })).items.map((i) => i.stars)).toEqual([4]);
    expect((await again.query({})).total).toBe(4);
    expect(await again.sync()).toBe(false);
    again.close();
  });

  it('a folder read again, or gone, leaves none of its old words in search', async () => {
    const root = library();
    batchFolder(root, 'shore', ['a heron', '一只青花瓷杯 heron'], 1_790_000_000);
    batchFolder(root, 'field', ['a crane'], 1_790_000_100);
    const catalog = testCatalog(() => root);
    const found = async (search: string) => (await catalog.query({ search })).total;
    expect([await found('heron'), await found('青花瓷'), await found('瓷杯')]).toEqual([2, 1, 1]);
    rmSync(join(root, 'shore'), { recursive: true });
    batchFolder(root, 'shore', ['a stork', '一只青花瓷碗'], 1_790_000_000);
    await catalog.sync();
    expect([await found('heron'), await found('青花瓷'), await found('瓷杯'), await found('stork')]).toEqual([
      0, 1, 0, 1,
    ]);
    rmSync(join(root, 'shore'), { recursive: true });
    await catalog.sync();
    batchFolder(root, 'marsh', ['a plover', 'a snipe', 'a rail'], 1_790_000_200);
    await catalog.sync();
    // The new folder's rows may take the gone folder's rowids: none of its words may come back.
    expect([await found('stork'), await found('青花'), await found('plover'), await found('crane')]).toEqual([
      0, 0, 1, 1,
    ]);
    expect((await catalog.query({})).total).toBe(4);
    catalog.close();
  });

  it('a search answers every window, alone or with other filters, as its words find them, after other searches and new folders', async () => {
    const root = library();
    const subjects = ['a walnut tray', '青花瓷杯', 'a brass lamp', 'walnut and brass', '木桌 brass'];
    // Over 2,000 matches: the windows walk the order's index instead of sorting the matches.
    for (let b = 0; b < 6; b++)
      batchFolder(
        root,
        `lot ${b}`,
        Array.from({ length: 500 }, (_, i) => `${subjects[(i + b) % subjects.length]} ${b}-${i}`),
        1_790_000_000 + (b % 3),
      );
    const catalog = testCatalog(() => root);
    // `ids` reads the full-text indexes directly: the list a search must show, in its order.
    const check = async (filter: Parameters<typeof catalog.ids>[0], expected: number) => {
      const all = await catalog.ids(filter);
      expect(all).toHaveLength(expected);
      for (const offset of [0, 200, Math.max(0, expected - 150)]) {
        const window = await catalog.query({ ...filter, offset, limit: 200 });
        expect(window.total).toBe(expected);
        expect(window.items.map((i) => i.id)).toEqual(all.slice(offset, offset + 200));
      }
    };
    await check({ search: 'brass' }, 1800);
    await check({ search: 'walnut' }, 1200);
    await check({ search: 'walnut brass' }, 600);
    await check({ search: 'bra', sort: 'oldest' }, 1800);
    await check({ search: '青花' }, 600);
    await check({ search: '青花瓷杯', sort: 'prompt' }, 600);
    await check({ search: 'brass', batchId: 'imgbatch_lot 2' }, 300);
    const [first] = await catalog.ids({ search: 'walnut' });
    await catalog.mark([first!], { mark: 'picked', stars: 2 });
    await check({ search: 'walnut', review: 'picked' }, 1);
    await check({ search: 'walnut', sort: 'stars' }, 1200);
    await check({ search: 'brass' }, 1800);
    // A new folder's images are found by the same search asked again.
    batchFolder(root, 'lot 6', ['brass bell', 'a brass lamp', 'a lampshade'], 1_790_000_500);
    await catalog.sync();
    await check({ search: 'brass' }, 1802);
    // A word's start finds every word it starts, whether few words start with it or many.
    await check({ search: 'lamp' }, 602);
    batchFolder(root, 'lot 7', ['lampa lampb lampc lampd lampe'], 1_790_000_600);
    await catalog.sync();
    await check({ search: 'lamp' }, 603);
    await check({ search: 'lampsh' }, 1);
    // Accents: the index holds "cafe" for "café", and finds it either way.
    batchFolder(root, 'lot 9', ['café au lait', 'a cafeteria tray'], 1_790_000_700);
    await catalog.sync();
    await check({ search: 'café' }, 2);
    await check({ search: 'cafe' }, 2);
    // An old batch catalogued last: the newest rowids are not the newest images.
    batchFolder(
      root,
      'lot 8',
      Array.from({ length: 500 }, (_, i) => `old brass ${i}`),
      1_700_000_000,
    );
    await catalog.sync();
    await check({ search: 'brass' }, 2302);
    const brass = await catalog.ids({ search: 'brass' });
    for (const limit of [1, 3, 450])
      expect((await catalog.query({ search: 'brass', limit })).items.map((i) => i.id)).toEqual(
        brass.slice(0, limit),
      );
    expect((await catalog.query({ search: 'brass', limit: 2 })).items.map((i) => i.prompt)).toEqual([
      'brass bell',
      'a brass lamp',
    ]);
    await check({ search: 'nothing-here' }, 0);
    catalog.close();
  });

  it('a damaged catalog is deleted and made again from the folders', async () => {
    const root = library();
    batchFolder(root, 'one', ['red fox', 'snow owl']);
    const first = testCatalog(() => root);
    await first.mark(await first.ids({ search: 'owl' }), { mark: 'rejected' });
    first.close();
    writeFileSync(catalogFileOf(root), 'not a database, '.repeat(400));
    const rebuilt = testCatalog(() => root);
    expect((await rebuilt.query({ review: 'rejected' })).items.map((i) => i.prompt)).toEqual(['snow owl']);
    rebuilt.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(catalogFileOf(root) + suffix, { force: true });
    const fresh = testCatalog(() => root);
    expect((await fresh.query({})).total).toBe(2);
    fresh.close();
  });

  it('marks find their images in the library folder open now, after a switch to another and back', async () => {
    const [home, away] = [library(), library()];
    batchFolder(home, 'home', ['a kiln', 'a wheel']);
    batchFolder(away, 'away', ['a loom']);
    let root = home;
    const catalog = testCatalog(() => root);
    const [kiln, wheel] = await catalog.ids({});
    await catalog.mark([kiln!], { stars: 3 });
    root = away;
    const [loom] = await catalog.ids({});
    await catalog.mark([loom!], { mark: 'picked' });
    // What an undo would put back: the marks of the images this library holds, and only them.
    expect(catalog.marksOf([kiln!, loom!])).toEqual([{ id: loom, mark: 'picked', stars: 0 }]);
    root = home;
    await catalog.mark([wheel!], { mark: 'rejected' });
    expect(catalog.marksOf([kiln!, wheel!, loom!])).toEqual([
      { id: kiln, mark: null, stars: 3 },
      { id: wheel, mark: 'rejected', stars: 0 },
    ]);
    catalog.close();
  });
});

describe('the library folder while the studio runs', () => {
  it('a batch folder copied in appears, one deleted goes, and marks reach the window as events', async () => {
    const services = await startServices();
    const root = (await call(services, 'settings.get')).libraryDir as string;
    const events: { reason: string; marks?: unknown[] }[] = [];
    services.events.subscribe((event, payload) => {
      if (event === 'library.changed') events.push(payload as (typeof events)[number]);
    });
    expect((await call(services, 'library.overview')).images).toBe(0);

    // Copied in the file manager: made elsewhere, then copied under the library folder.
    const elsewhere = batchFolder(library(), 'From a colleague', ['a ceramic mug', 'a linen napkin']);
    cpSync(elsewhere, join(root, 'From a colleague'), { recursive: true });
    const arrived = await waitUntil(
      () => call(services, 'library.query', { search: 'mug' }),
      (r: any) => r.total === 1,
    );
    const id = arrived.items[0].id as string;
    expect(events.some((e) => e.reason === 'folders')).toBe(true);

    const before = events.length;
    await call(services, 'library.mark', { ids: [id], mark: 'picked' });
    // Only the marks: a 'folders' event may come meanwhile, when the background hashing writes the
    // folder's hashes.json and the watch sees it.
    expect(events.slice(before).filter((e) => e.reason === 'marks')).toEqual([
      { reason: 'marks', marks: [{ id, mark: 'picked', stars: 0 }] },
    ]);

    rmSync(join(root, 'From a colleague'), { recursive: true });
    // Seen by the watch: a window's query never looks at the folders itself.
    await waitUntil(
      () => call(services, 'library.query', {}),
      (r: any) => r.total === 0,
    );
    expect((await call(services, 'library.overview')).images).toBe(0);
  });
});

describe('collections', () => {
  it("keeps a person's boards in their own file, filters by them, and a copied library keeps them", async () => {
    const services = await startServices();
    const root = (await call(services, 'settings.get')).libraryDir as string;
    batchFolder(root, 'Mugs', ['a ceramic mug', 'a glazed mug', 'a tin mug']);
    batchFolder(root, 'Vases', ['a glazed vase']);
    // Opening the Library (its overview) checks the folders.
    expect((await call(services, 'library.overview')).images).toBe(4);
    const glazed: string[] = await call(services, 'library.ids', { search: 'glazed' });
    expect(glazed).toHaveLength(2);

    const board = await call(services, 'collections.create', { name: '  Client   picks ', ids: [glazed[0]] });
    expect(board.name).toBe('Client picks');
    // Added twice, or with one already there: each image is in a board once.
    expect(await call(services, 'collections.setImages', { id: board.id, ids: glazed, present: true })).toBe(
      1,
    );
    const other = await call(services, 'collections.create', { name: 'Moodboard', ids: [glazed[1]] });
    await call(services, 'collections.rename', { id: other.id, name: 'Mood' });

    const inBoard = await call(services, 'library.query', { collectionId: board.id });
    expect(inBoard.items.map((i: { prompt: string }) => i.prompt).sort()).toEqual([
      'a glazed mug',
      'a glazed vase',
    ]);
    expect((await call(services, 'library.overview')).collections).toEqual([
      { id: board.id, name: 'Client picks', images: 2 },
      { id: other.id, name: 'Mood', images: 1 },
    ]);
    expect(
      await call(services, 'collections.setImages', { id: board.id, ids: [glazed[0]], present: false }),
    ).toBe(1);

    // The library folder copied to another machine: its boards come along, read by a new catalog.
    const copy = mkdtempSync(join(tmpdir(), 'library-copy-'));
    cpSync(root, copy, { recursive: true, filter: (path) => !path.includes('.catalog') });
    const elsewhere = testCatalog(() => copy);
    expect((await elsewhere.overview()).collections.map((c) => [c.name, c.images])).toEqual([
      ['Client picks', 1],
      ['Mood', 1],
    ]);
    expect((await elsewhere.query({ collectionId: other.id })).items.map((i) => i.prompt)).toEqual([
      'a glazed mug',
    ]);
    elsewhere.close();

    await call(services, 'collections.delete', { id: other.id });
    expect(
      (await call(services, 'library.overview')).collections.map((c: { name: string }) => c.name),
    ).toEqual(['Client picks']);
    const me = (await call(services, 'settings.get')).personId as string;
    const written = JSON.parse(readFileSync(join(root, '.studio', 'boards', `${me}.json`), 'utf8'));
    expect(written.format).toBe('batch-image-studio.boards/1');
    expect(existsSync(join(root, 'collections.json'))).toBe(false);
    await expect(call(services, 'collections.rename', { id: other.id, name: 'x' })).rejects.toThrow(
      /STUDIO_COLLECTION_NOT_FOUND/,
    );
  });
});
