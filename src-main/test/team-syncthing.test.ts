import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promptsDraft } from './helpers/prompts-draft';
import {
  call,
  startServices,
  submitAndDownload,
  waitUntil,
  type TestServices,
} from './helpers/studio-fixture';
import { startSyncthingPair, syncthingMissing, type SyncthingPair } from './helpers/syncthing-pair';

// Two studios on two machines' library folders, kept in step by two real Syncthing instances on
// this machine (127.0.0.1 only, no discovery, relays or reporting: syncthing-pair.ts). What each
// person sees is asked of their own studio, as its window would.

if (syncthingMissing) console.log(`Syncthing studio tests skipped: ${syncthingMissing}`);

type Id = string;

describe.skipIf(!!syncthingMissing)('a library kept in step by Syncthing', () => {
  let pair: SyncthingPair;
  let ana: TestServices;
  let wei: TestServices;
  const dirA = mkdtempSync(join(tmpdir(), 'sync-a-'));
  const dirB = mkdtempSync(join(tmpdir(), 'sync-b-'));
  let folder = '';
  let images: Id[] = [];

  beforeAll(async () => {
    pair = await startSyncthingPair({ dirA, dirB });
    ana = await startServices();
    wei = await startServices();
    await call(ana, 'settings.update', { libraryDir: dirA, personName: 'Ana' });
    await call(wei, 'settings.update', { libraryDir: dirB, personName: 'Wei' });
  }, 120_000);
  afterAll(async () => {
    await pair?.stop();
  });

  /** The ids `who` sees under a filter, once their studio has looked at the folders. */
  const seen = async (who: TestServices, filter: object): Promise<Id[]> => {
    await call(who, 'library.overview');
    return ((await call(who, 'library.ids', filter)) as Id[]).sort();
  };

  it("brings a batch downloaded on one machine to the other, with the first person's marks", async () => {
    const batch = await submitAndDownload(
      ana,
      promptsDraft('sync-1', 'Synced mugs', ['a mug', 'a cup', 'a jug', 'a bowl']),
    );
    folder = batch.download.folder ?? (readdirSync(dirA).find((n) => n.includes(batch.id)) as string);
    images = await seen(ana, {});
    expect(images).toHaveLength(4);
    await call(ana, 'library.mark', { ids: images.slice(0, 2), mark: 'picked' });
    await pair.waitInSync(60_000);
    const picked = await waitUntil(
      () => seen(wei, { review: 'picked', whose: 'anyone' }),
      (ids) => ids.length === 2,
      30_000,
    );
    expect(picked).toEqual(images.slice(0, 2));
    const shown = await call(wei, 'library.query', { review: 'picked', whose: 'anyone' });
    expect(shown.items[0].team.by).toEqual([{ name: 'Ana', me: false, mark: 'picked', stars: 0 }]);
    // Every image arrived whole, and only what the library holds: no staging of Ana's became a batch.
    expect(await seen(wei, {})).toEqual(images);
    expect((await call(wei, 'library.overview')).problems).toEqual([]);
  });

  it('keeps marks made on both machines at the same moment, on both', async () => {
    await Promise.all([
      call(ana, 'library.mark', { ids: [images[2]], mark: 'rejected' }),
      call(wei, 'library.mark', { ids: [images[0], images[3]], mark: 'rejected' }),
      call(wei, 'library.mark', { ids: [images[1]], stars: 4 }),
    ]);
    await pair.waitInSync(60_000);
    for (const who of [ana, wei]) {
      const rejected = await waitUntil(
        () => seen(who, { review: 'rejected', whose: 'anyone' }),
        (ids) => ids.length === 3,
        30_000,
      );
      expect(rejected).toEqual([images[0], images[2], images[3]].sort());
      // Ana picked image 0 and Wei rejected it: the team disagrees, on both machines.
      expect(await seen(who, { agreement: 'disagree' })).toEqual([images[0]]);
      expect(await seen(who, { minPicks: 1 })).toEqual(images.slice(0, 2));
    }
    // Each person's file holds exactly their own marks, on both sides.
    const aId = (await call(ana, 'settings.get')).personId;
    const wId = (await call(wei, 'settings.get')).personId;
    for (const dir of [dirA, dirB]) {
      expect(readdirSync(join(dir, folder, 'review')).sort()).toEqual([`${aId}.json`, `${wId}.json`].sort());
      const weis = JSON.parse(readFileSync(join(dir, folder, 'review', `${wId}.json`), 'utf8')).images;
      expect(Object.keys(weis).sort()).toEqual(
        images
          .slice(0, 2)
          .concat(images[3]!)
          .map((i) => i.slice(folder.length + 1))
          .sort(),
      );
    }
  });

  it("merges a conflict copy Syncthing makes of a person's file, then folds it in", async () => {
    const aId = (await call(ana, 'settings.get')).personId;
    await pair.pause();
    // Ana's file changed on both machines while they were apart: her studio marks on A, and an
    // older studio of hers (a copy on B) wrote the same file there with another change.
    await call(ana, 'library.mark', { ids: [images[3]], stars: 5 });
    const onB = join(dirB, folder, 'review', `${aId}.json`);
    const theirs = JSON.parse(readFileSync(onB, 'utf8'));
    theirs.images[images[2]!.slice(folder.length + 1)] = {
      mark: 'picked',
      stars: 2,
      seq: Date.now() + 60_000,
    };
    writeFileSync(`${onB}.edit`, JSON.stringify(theirs));
    renameSync(`${onB}.edit`, onB);
    await pair.resume();
    await pair.waitInSync(60_000);
    const copies = (dir: string) =>
      readdirSync(join(dir, folder, 'review')).filter((n) => n.includes('sync-conflict'));
    await waitUntil(
      () => copies(dirA).length + copies(dirB).length,
      (n) => n >= 2,
      30_000,
    );
    for (const who of [ana, wei]) {
      // Both changes count, on both machines, and the copy is no folder problem.
      await waitUntil(
        async () => ({
          picked: await seen(who, { review: 'picked', whose: 'anyone' }),
          starred: await seen(who, { minStars: 5 }),
          problems: (await call(who, 'library.overview')).problems,
        }),
        (v) =>
          v.picked.includes(images[2]!) &&
          (who === wei || v.starred.includes(images[3]!)) &&
          v.problems.length === 0,
        30_000,
      );
    }
    // Ana's next mark folds the copy into her file and removes it, on both machines.
    await call(ana, 'library.mark', { ids: [images[1]], stars: 1 });
    await pair.waitInSync(60_000);
    await waitUntil(
      () => copies(dirA).length + copies(dirB).length,
      (n) => n === 0,
      30_000,
    );
    const merged = JSON.parse(readFileSync(join(dirB, folder, 'review', `${aId}.json`), 'utf8')).images;
    expect(merged[images[2]!.slice(folder.length + 1)]).toMatchObject({ mark: 'picked', stars: 2 });
    expect(merged[images[3]!.slice(folder.length + 1)]).toMatchObject({ stars: 5 });
    expect(existsSync(join(dirB, '.studio', 'staging'))).toBe(false);
  });
});
