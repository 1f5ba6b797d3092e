import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChangeFeed } from '../services/library/changes/change-feed';
import { journalFile } from '../services/library/changes/change-journal';
import { LibraryChanges } from '../services/library/changes/library-changes';
import { watchModeOf } from '../services/library/changes/watch-mode';

const library = () => mkdtempSync(join(tmpdir(), 'library-journal-'));
const sorted = (names: Set<string>) => [...names].sort();

describe("a studio's change journal", () => {
  it('names what a studio wrote, once each, and another studio reads only what is new', async () => {
    const root = library();
    const ana = new LibraryChanges(() => root, 'ana');
    const feed = new ChangeFeed(root, 'bo', false);
    // Nothing written yet: nothing to read.
    expect(sorted((await feed.look()).once)).toEqual([]);

    ana.noteFolder('Mugs');
    ana.noteFolder('Vases');
    ana.noteFolder('Mugs');
    await ana.flush();
    // A journal that appears while the studio runs: every name in it is a change made since.
    const first = await feed.look();
    expect(sorted(first.folders)).toEqual(['Mugs', 'Vases']);
    expect(first.everything).toBe(false);
    // A journal already there when a studio starts: its names are looked at once, by their signature.
    expect(sorted((await new ChangeFeed(root, 'cy', false).look()).once)).toEqual(['Mugs', 'Vases']);
    // Nothing new since: nothing to do (the journal is only looked at, not read).
    expect(sorted((await feed.look()).folders)).toEqual([]);

    ana.noteBoards();
    ana.noteFolder('Lamps');
    await ana.flush();
    const next = await feed.look();
    expect(sorted(next.folders)).toEqual(['Lamps']);
    expect(next.boards).toBe(true);

    // Its own journal is never read as another's.
    const own = new ChangeFeed(root, 'ana', false);
    expect(sorted((await own.look()).once)).toEqual([]);
  });

  it('keeps the last 200 names; a reader that missed more looks at every folder', async () => {
    const root = library();
    const ana = new LibraryChanges(() => root, 'ana');
    ana.noteFolder('First');
    await ana.flush();
    const feed = new ChangeFeed(root, 'bo', false);
    await feed.look();
    for (let i = 0; i < 250; i++) ana.noteFolder(`Folder ${i}`);
    await ana.flush();
    const journal = JSON.parse(readFileSync(journalFile(root, 'ana'), 'utf8'));
    expect(journal.entries).toHaveLength(200);
    expect(journal.entries.at(-1)).toEqual({ seq: journal.seq, folder: 'Folder 249' });
    expect((await feed.look()).everything).toBe(true);
  });

  it('goes on from its seq after a restart; a damaged journal costs nothing but a look at everything', async () => {
    const root = library();
    const before = new LibraryChanges(() => root, 'ana');
    before.noteFolder('Mugs');
    await before.flush();
    const feed = new ChangeFeed(root, 'bo', false);
    await feed.look();
    const seq = JSON.parse(readFileSync(journalFile(root, 'ana'), 'utf8')).seq as number;

    const after = new LibraryChanges(() => root, 'ana');
    after.noteFolder('Vases');
    await after.flush();
    expect(JSON.parse(readFileSync(journalFile(root, 'ana'), 'utf8')).seq).toBe(seq + 1);
    const next = await feed.look();
    expect(sorted(next.folders)).toEqual(['Vases']);
    expect(next.everything).toBe(false);

    // Damaged by hand: read as nothing, and its studio's next write starts above any seq seen.
    writeFileSync(journalFile(root, 'ana'), '{"format": "batch-image-studio.changes/1", "seq": ');
    expect(await feed.look()).toMatchObject({ everything: false, boards: false });
    const again = new LibraryChanges(() => root, 'ana');
    again.noteFolder('Lamps');
    await again.flush();
    const last = await feed.look();
    expect(sorted(last.folders)).toEqual(['Lamps']);
    // What the lost journal named in between cannot be known: every folder is looked at.
    expect(last.everything).toBe(true);
  });

  it('polls only when told to, or on a network file system', () => {
    expect(watchModeOf(library(), { STUDIO_LIBRARY_WATCH: 'poll' }).watch).toBe(false);
    // A local temporary folder (tmpfs or a local disk) is watched.
    expect(watchModeOf(library(), {}).watch).toBe(true);
  });
});
