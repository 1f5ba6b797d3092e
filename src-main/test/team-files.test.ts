import {
  existsSync,
  mkdirSync,
  renameSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Collections } from '../services/library/folders/boards';
import { LibraryCatalog } from '../services/library/catalog/library-catalog';
import { isSyncTemporary, syncConflictOf } from '../services/library/folders/sync-conflicts';
import { promptsFolder } from './helpers/batch-folders';
import { personMarksOnDisk } from './helpers/marks-on-disk';

// A 1×1 PNG: the catalog lists files by batch.json, not by decoding them.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const batchFolder = (root: string, name: string, prompts: string[]) =>
  promptsFolder(root, name, prompts, png);

/** Another person's marks file, as their studio writes it. */
function personFile(
  dir: string,
  id: string,
  name: string,
  images: Record<string, [string | null, number, number]>,
) {
  mkdirSync(join(dir, 'review'), { recursive: true });
  const file = {
    format: 'batch-image-studio.review/2',
    person: { id, name },
    images: Object.fromEntries(
      Object.entries(images).map(([k, [mark, stars, seq]]) => [k, { mark, stars, seq }]),
    ),
  };
  writeFileSync(join(dir, 'review', `${id}.json`), JSON.stringify(file));
}

const ana = { id: 'aaaaaaaaaaaa', name: 'Ana' };
const wei = { id: 'bbbbbbbbbbbb', name: '伟' };

describe("sync tools' leftovers", () => {
  it('recognises the conflict copies of Syncthing, Dropbox, Nextcloud and OneDrive, and their temporaries', () => {
    expect(syncConflictOf('aaaaaaaaaaaa.sync-conflict-20261127-101112-ABCDEFG.json')).toEqual({
      original: 'aaaaaaaaaaaa.json',
      tool: 'syncthing',
    });
    expect(syncConflictOf("review (Ana's conflicted copy 2026-11-27).json")?.original).toBe('review.json');
    expect(syncConflictOf('review (conflicted copy 2026-11-27 101112).json')?.original).toBe('review.json');
    expect(syncConflictOf('review-DESKTOP7.json', new Set(['review.json']))?.original).toBe('review.json');
    // A dash in an ordinary name is not a OneDrive copy unless the original is there.
    expect(syncConflictOf('row-12.png', new Set(['row.png', 'row-12.png']))).toBeUndefined();
    expect(syncConflictOf('review.json')).toBeUndefined();
    expect(isSyncTemporary('.syncthing.row-1.png.tmp')).toBe(true);
    expect(isSyncTemporary('~syncthing~row-1.png.tmp')).toBe(true);
    expect(isSyncTemporary('row-1.png')).toBe(false);
  });
});

describe("people's marks in a shared library", () => {
  it("reads each person's file, counts the team, and a damaged one costs only that person's marks", async () => {
    const root = mkdtempSync(join(tmpdir(), 'team-'));
    const dir = batchFolder(root, 'Mugs', ['a mug', 'a cup', 'a jug']);
    personFile(dir, wei.id, wei.name, {
      'images/row-1.png': ['picked', 0, 5],
      'images/row-2.png': ['rejected', 0, 6],
    });
    // Marks from before people had names: they count only where nobody has marked the image since.
    writeFileSync(
      join(dir, 'review.json'),
      JSON.stringify({
        images: {
          'images/row-1.png': { mark: 'rejected', stars: 0 },
          'images/row-3.png': { mark: 'picked', stars: 2 },
        },
      }),
    );
    const catalog = new LibraryCatalog(
      () => root,
      undefined,
      () => ana,
    );
    expect(
      (await catalog.query({ review: 'picked', whose: 'anyone' })).items.map((i) => i.prompt).sort(),
    ).toEqual(['a jug', 'a mug']);
    // Mine: the earlier marks count as Ana's own until she marks the image.
    expect((await catalog.query({ review: 'picked' })).items.map((i) => i.prompt)).toEqual(['a jug']);
    const [mug] = await catalog.ids({ search: 'mug' });
    await catalog.mark([mug!], { mark: 'rejected' });
    expect(
      (await catalog.query({ agreement: 'disagree' })).items.map((i) => [
        i.prompt,
        i.team?.by.map((b) => b.name).sort(),
      ]),
    ).toEqual([['a mug', ['Ana', '伟']]]);
    expect(personMarksOnDisk(dir, ana.id).images).toEqual({
      'images/row-1.png': { mark: 'rejected', stars: 0 },
    });
    // Wei's file is not touched by Ana's studio.
    expect(
      JSON.parse(readFileSync(join(dir, 'review', `${wei.id}.json`), 'utf8')).images['images/row-1.png'].mark,
    ).toBe('picked');

    // Wei's file damaged (put in place by a rename, as a studio or a sync tool does): his marks are
    // gone, Ana's stay, and the folder says why. (A moment after Ana's mark: a folder's time is kept
    // to a few milliseconds, and a change within the same tick is found by its writer's journal.)
    await new Promise((resolve) => setTimeout(resolve, 30));
    writeFileSync(join(dir, 'damaged'), '{"format": "batch-image-studio.review/2", "person"');
    renameSync(join(dir, 'damaged'), join(dir, 'review', `${wei.id}.json`));
    const again = new LibraryCatalog(
      () => root,
      undefined,
      () => ana,
    );
    const overview = await again.overview();
    expect(overview.problems).toEqual([
      expect.objectContaining({
        folder: 'Mugs',
        reason: 'PERSON_MARKS_UNREADABLE',
        file: `review/${wei.id}.json`,
      }),
    ]);
    expect((await again.query({ review: 'rejected' })).items.map((i) => i.prompt)).toEqual(['a mug']);
    expect((await again.query({ review: 'picked', whose: 'anyone' })).items.map((i) => i.prompt)).toEqual([
      'a jug',
    ]);
    catalog.close();
    again.close();
  });

  it("merges a sync tool's conflict copy of a person's file by that person's own order, whatever the clocks say", async () => {
    const root = mkdtempSync(join(tmpdir(), 'team-'));
    const dir = batchFolder(root, 'Vases', ['a vase', 'a bowl']);
    // The copy holds Ana's later change to row 1 (a higher counter) and an older one to row 2.
    personFile(dir, ana.id, ana.name, {
      'images/row-1.png': ['picked', 0, 10],
      'images/row-2.png': ['picked', 3, 20],
    });
    writeFileSync(
      join(dir, 'review', `${ana.id}.sync-conflict-20261127-101112-ABCDEFG.json`),
      JSON.stringify({
        format: 'batch-image-studio.review/2',
        person: ana,
        images: {
          'images/row-1.png': { mark: 'rejected', stars: 1, seq: 11 },
          'images/row-2.png': { mark: null, stars: 0, seq: 19 },
        },
      }),
    );
    const catalog = new LibraryCatalog(
      () => root,
      undefined,
      () => ana,
    );
    const shown = (await catalog.query({ sort: 'oldest' })).items.map((i) => [i.mark, i.stars]);
    expect(shown).toEqual([
      ['rejected', 1],
      ['picked', 3],
    ]);
    expect((await catalog.overview()).problems).toEqual([]);
    // Ana's next mark folds the copy into her file and removes it: one file, every mark.
    const [bowl] = await catalog.ids({ search: 'bowl' });
    await catalog.mark([bowl!], { stars: 5 });
    expect(readdirSync(join(dir, 'review'))).toEqual([`${ana.id}.json`]);
    expect(personMarksOnDisk(dir, ana.id).images).toEqual({
      'images/row-1.png': { mark: 'rejected', stars: 1 },
      'images/row-2.png': { mark: 'picked', stars: 5 },
    });
    catalog.close();
  });
});

describe('what a mark never does', () => {
  it("never makes a batch folder again, nor writes over a person's own damaged file", async () => {
    const root = mkdtempSync(join(tmpdir(), 'team-'));
    const dir = batchFolder(root, 'Jugs', ['a jug', 'a pot']);
    const catalog = new LibraryCatalog(
      () => root,
      undefined,
      () => ana,
    );
    const [jug, pot] = await catalog.ids({ sort: 'oldest' });
    // Ana's own file damaged: her next mark keeps it beside, for whoever wants to look.
    mkdirSync(join(dir, 'review'));
    writeFileSync(
      join(dir, 'review', `${ana.id}.json`),
      '{"format": "batch-image-studio.review/2", "images": {',
    );
    await catalog.mark([jug!], { mark: 'picked' });
    const kept = readdirSync(join(dir, 'review')).filter((n) => n.includes('.damaged-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, 'review', kept[0]!), 'utf8')).toContain('"images": {');
    // The folder moved away (a replace under way, or deleted): a mark is refused in words, and
    // nothing of the folder is made again under its name.
    renameSync(dir, join(root, '.aside'));
    await expect(catalog.mark([pot!], { mark: 'rejected' })).rejects.toThrow(/no longer in the library/);
    expect(existsSync(dir)).toBe(false);
    catalog.close();
  });

  it("keeps a person's own damaged boards file beside, and begins it again", async () => {
    const root = mkdtempSync(join(tmpdir(), 'boards-'));
    mkdirSync(join(root, '.studio', 'boards'), { recursive: true });
    writeFileSync(join(root, '.studio', 'boards', `${ana.id}.json`), '{"format":');
    const boards = new Collections(
      () => root,
      () => ana,
    );
    await boards.create('Fresh');
    expect((await boards.read()).map((b) => b.name)).toEqual(['Fresh']);
    expect(readdirSync(join(root, '.studio', 'boards')).filter((n) => n.includes('.damaged-'))).toHaveLength(
      1,
    );
  });
});

describe('clocks', () => {
  it("never reorders a person's own marks, whatever their machines' clocks say", async () => {
    const root = mkdtempSync(join(tmpdir(), 'team-'));
    const dir = batchFolder(root, 'Cups', ['a cup']);
    // Ana's file last written on a machine whose clock ran five hours ahead.
    const ahead = Date.now() + 5 * 3600_000;
    personFile(dir, ana.id, ana.name, { 'images/row-1.png': ['picked', 4, ahead] });
    const catalog = new LibraryCatalog(
      () => root,
      undefined,
      () => ana,
    );
    const [cup] = await catalog.ids({});
    await catalog.mark([cup!], { mark: 'rejected' });
    await catalog.mark([cup!], { stars: 1 });
    // Her later changes, made once the clock was put right, are her marks now.
    expect(personMarksOnDisk(dir, ana.id).images['images/row-1.png']).toEqual({ mark: 'rejected', stars: 1 });
    // A sync tool then brings a copy of her file from before her last write (a change she made
    // while the clock ran ahead): her own order still puts it before her last changes.
    writeFileSync(
      join(dir, 'review', `${ana.id}.sync-conflict-20261127-101112-ABCDEFG.json`),
      JSON.stringify({
        format: 'batch-image-studio.review/2',
        person: ana,
        images: { 'images/row-1.png': { mark: 'alternative', stars: 2, seq: ahead - 1000 } },
      }),
    );
    const again = new LibraryCatalog(
      () => root,
      undefined,
      () => ana,
    );
    expect((await again.query({})).items.map((i) => [i.mark, i.stars])).toEqual([['rejected', 1]]);
    catalog.close();
    again.close();
  });
});

describe('boards shared by a team', () => {
  it('loses nothing when two people add to, take from and rename boards at the same time', async () => {
    const root = mkdtempSync(join(tmpdir(), 'boards-'));
    // A board from before people had names.
    writeFileSync(
      join(root, 'collections.json'),
      JSON.stringify({
        collections: [{ id: 'old', name: 'Client', createdAt: 1, images: ['A/images/1.png'] }],
      }),
    );
    const a = new Collections(
      () => root,
      () => ana,
    );
    const b = new Collections(
      () => root,
      () => wei,
    );
    const board = await a.create('Shared', ['A/images/1.png']);
    await Promise.all([
      a.setImages(board.id, ['A/images/2.png', 'A/images/3.png'], true),
      b.setImages(board.id, ['B/images/1.png'], true),
      b.setImages('old', ['B/images/9.png'], true),
      a.setImages('old', ['A/images/1.png'], false),
      b.rename(board.id, 'Shared picks'),
    ]);
    const boards = await new Collections(() => root).read();
    expect(boards.map((c) => [c.name, c.images.sort()])).toEqual([
      ['Client', ['B/images/9.png']],
      ['Shared picks', ['A/images/1.png', 'A/images/2.png', 'A/images/3.png', 'B/images/1.png']],
    ]);
    // Each person wrote only their own file; the old collections.json is left as it was.
    expect(readdirSync(join(root, '.studio', 'boards')).sort()).toEqual([`${ana.id}.json`, `${wei.id}.json`]);
    expect(JSON.parse(readFileSync(join(root, 'collections.json'), 'utf8')).collections[0].images).toEqual([
      'A/images/1.png',
    ]);
    // A delete by one and an add by the other after it: the board stays deleted, in the team's order.
    await b.remove('old');
    await expect(a.setImages('old', ['A/images/5.png'], true)).rejects.toThrow(/no longer exists/);
    expect((await a.read()).map((c) => c.name)).toEqual(['Shared picks']);
  });
});
