import { readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, submitAndDownload, waitUntil } from './helpers/studio-fixture';

// File watches off, as on an NFS or SMB share where they see nothing of another machine's writes:
// only polling can show the other studio's work.
process.env.STUDIO_LIBRARY_WATCH = 'poll';

/** Within this time of reaching the disk, another studio's change is shown (issue 35). */
const LIVE_MS = 5_000;

type Item = {
  id: string;
  prompt: string;
  mark: string | null;
  team?: { picks: number; by: { me: boolean; mark: string | null; stars: number }[] };
};

describe('two studios on one library folder, with file watches off', () => {
  it("shows the other studio's new folder, marks and boards within seconds, with no restart", async () => {
    const { here, there, root, heard } = await twoStudios();
    // This studio has read its (empty) library; from now on only the watch brings changes. The
    // gallery's query never looks at the folders itself (the overview would): it is what is waited on.
    expect((await call(here, 'library.query', {})).total).toBe(0);

    // A batch downloaded by the other studio.
    await submitAndDownload(
      there,
      promptsDraft(`live-${Date.now()}`, 'Shared mugs', ['a tin mug', 'a jade mug']),
    );
    const arrived = await waitUntil(
      () => call(here, 'library.query', { search: 'mug', sort: 'oldest' }),
      (r: { total: number; items: Item[] }) => r.total === 2,
      LIVE_MS,
    );
    expect(heard).toContain('folders');
    const [tin, jade] = arrived.items as Item[];

    // Both studios hash the new images (writing hashes.json) and look again while the folder
    // changes: the marks below are made once this studio has heard nothing for a while, so only
    // the other studio's journal can bring them.
    await quiet(heard);
    // Marks made over there: only their folder's files change, the library folder's own time does not.
    await call(there, 'library.mark', { ids: [jade!.id], mark: 'picked', stars: 4 });
    heard.length = 0;
    await waitUntil(
      () => call(here, 'library.query', { search: 'jade' }),
      (r: { items: Item[] }) =>
        r.items[0]?.team?.picks === 1 &&
        r.items[0].team.by.some((m) => !m.me && m.mark === 'picked' && m.stars === 4),
      LIVE_MS,
    );
    expect(heard).toContain('folders');
    // Their mark, not this person's: here nobody has marked anything.
    expect((await call(here, 'library.query', { search: 'jade' })).items[0].mark).toBeNull();
    expect((await call(here, 'library.query', { search: 'tin' })).items[0].team).toBeUndefined();

    // A board made over there.
    const board = await call(there, 'collections.create', { name: 'Client picks', ids: [tin!.id] });
    await waitUntil(
      () => call(here, 'library.query', { collectionId: board.id }),
      (r: { items: Item[] }) => r.items.length === 1 && r.items[0]!.id === tin!.id,
      LIVE_MS,
    );
    expect(heard).toContain('collections');

    // The overview, which a window asks for next, agrees.
    const overview = await call(here, 'library.overview');
    expect(overview.images).toBe(2);
    expect(overview.collections).toEqual([{ id: board.id, name: 'Client picks', images: 1 }]);

    // What the other studio wrote in its journal: one file of its own, naming the folder and the boards.
    const journals = join(root, '.studio', 'changes');
    const theirs = JSON.parse(readFileSync(join(journals, `${there.studioId}.json`), 'utf8')) as {
      entries: { folder?: string; boards?: true }[];
    };
    expect(theirs.entries.map((e) => e.folder ?? 'boards')).toEqual([jade!.id.split('/')[0], 'boards']);
  });

  it('reads a folder the other studio names, even when its times did not move (two writes in one tick of the clock)', async () => {
    const { here, there, root, heard } = await twoStudios();
    await submitAndDownload(
      there,
      promptsDraft(`tick-${Date.now()}`, 'Tick mugs', ['a tin cup', 'a jade cup']),
    );
    const [tin, jade] = (
      await waitUntil(
        () => call(here, 'library.query', { search: 'cup', sort: 'oldest' }),
        (r: { total: number; items: Item[] }) => r.total === 2,
        LIVE_MS,
      )
    ).items as Item[];
    const theirMark = (id: string) => async () =>
      (
        (await call(here, 'library.query', { search: id === tin!.id ? 'tin' : 'jade' })).items[0] as Item
      ).team?.by.find((m) => !m.me)?.mark ?? null;
    // Their file in the folder's review/ is there, and seen here.
    await call(there, 'library.mark', { ids: [tin!.id], mark: 'rejected' });
    await waitUntil(theirMark(tin!.id), (m) => m === 'rejected', LIVE_MS);
    await quiet(heard);

    // The folder's clocks move in ticks of a few milliseconds: a write here and a write there in
    // one tick leave review/ with the time this studio saw after its own. Made so on purpose: the
    // times are set back after their write, before their journal names the folder.
    const review = join(root, jade!.id.split('/')[0]!, 'review');
    const tick = new Date('2026-01-02T03:04:05Z');
    utimesSync(review, tick, tick);
    await call(here, 'library.overview'); // every folder checked: this studio has read review/ at that time
    await call(there, 'library.mark', { ids: [jade!.id], mark: 'picked' });
    utimesSync(review, tick, tick);
    await waitUntil(theirMark(jade!.id), (m) => m === 'picked', LIVE_MS);
  });

  it('reads the boards the other studio names, even when their files did not move', async () => {
    const { here, there, root } = await twoStudios();
    const board = await call(there, 'collections.create', { name: 'Client' });
    const boardNamed = (name: string) => async () =>
      ((await call(here, 'library.overview')) as { collections: { name: string }[] }).collections.some(
        (c) => c.name === name,
      );
    await waitUntil(boardNamed('Client'), (seen) => seen, LIVE_MS);

    // A rename to a name of the same length, in the same tick as what this studio last read: the
    // boards' files keep their times and sizes, so only the other studio's journal tells.
    const dir = join(root, '.studio', 'boards');
    const tick = new Date('2026-01-02T03:04:05Z');
    const setBack = () => {
      for (const name of readdirSync(dir)) utimesSync(join(dir, name), tick, tick);
      utimesSync(dir, tick, tick);
    };
    const sizes = () => readdirSync(dir).map((name) => `${name}:${statSync(join(dir, name)).size}`);
    setBack();
    await call(here, 'library.overview'); // every folder and the boards checked, at those times
    const before = sizes();
    await call(there, 'collections.rename', { id: board.id, name: 'Market' });
    setBack();
    expect(sizes()).toEqual(before);
    await waitUntil(boardNamed('Market'), (seen) => seen, LIVE_MS);
  });
});

/** Two studios on one library folder; what `here` announces of its library is heard. */
async function twoStudios() {
  const here = await startServices();
  const root = (await call(here, 'settings.get')).libraryDir as string;
  const there = await startServices();
  await call(there, 'settings.update', { libraryDir: root });
  const heard: string[] = [];
  here.events.subscribe((event, payload) => {
    if (event === 'library.changed') heard.push((payload as { reason: string }).reason);
  });
  return { here, there, root, heard };
}

/** Waits until this studio has announced no change of its library for a few seconds. */
async function quiet(heard: string[]): Promise<void> {
  let count = -1;
  let since = Date.now();
  await waitUntil(
    () => {
      if (heard.length !== count) [count, since] = [heard.length, Date.now()];
      return Date.now() - since;
    },
    (still) => still > 2_500,
  );
}
