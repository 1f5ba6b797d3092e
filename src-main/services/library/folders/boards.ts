import { randomUUID } from 'node:crypto';
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { StudioError } from '../../../../src-shared/studio-error';
import { logCaught, logCaughtUnlessMissing } from '../../log/studio-log';
import { fsyncDir, makeDir, writeJsonAtomic } from '../../storage/atomic-file';
import { damagedName, personIdOfFile, syncConflictOf } from './sync-conflicts';

/** The boards from before people had names: read as where every board began, never written again. */
export const COLLECTIONS_FILE = 'collections.json';
/** Each person's board changes, one file each, written only by their studio. */
export const BOARDS_DIR = join('.studio', 'boards');
const BOARDS_FORMAT = 'batch-image-studio.boards/1';

/**
 * A change's place in the team's order: a Lamport counter (one more than anything its writer had
 * seen) and, for a tie, the person's id. No clock is compared, so machines whose clocks disagree
 * by hours still agree on which change came last.
 */
type Stamp = [counter: number, person: string];
const after = (a: Stamp, b: Stamp) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

const stampSchema = z.tuple([z.number().int().min(0), z.string()]);
const personFileSchema = z.object({
  format: z.literal(BOARDS_FORMAT),
  person: z.object({ id: z.string(), name: z.string() }),
  boards: z.record(
    z.string(),
    z.object({
      name: z.string(),
      named: stampSchema,
      createdAt: z.number(),
      /** Made or deleted, and when in the team's order. */
      alive: z.boolean(),
      lived: stampSchema,
    }),
  ),
  /** Per board, per image: in or out, and when in the team's order. */
  images: z.record(z.string(), z.record(z.string(), z.tuple([z.boolean(), z.number().int(), z.string()]))),
});
type PersonBoards = z.infer<typeof personFileSchema>;

const legacySchema = z.object({
  collections: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      createdAt: z.number().default(0),
      images: z.array(z.string()).default([]),
    }),
  ),
});

export type StoredCollection = z.infer<typeof legacySchema>['collections'][number];

const NAME_MAX = 120;

function cleanName(name: string): string {
  const clean = name.replace(/\s+/g, ' ').trim().slice(0, NAME_MAX);
  if (!clean) throw new StudioError({ code: 'STUDIO_BAD_INPUT', message: 'A collection needs a name.' });
  return clean;
}

const empty = (person: { id: string; name: string }): PersonBoards => ({
  format: BOARDS_FORMAT,
  person,
  boards: {},
  images: {},
});

/** Every person's changes as one state: each board's name, life and images, the latest stamp winning. */
function merge(files: PersonBoards[]): { state: PersonBoards; clock: number } {
  const state = empty({ id: '', name: '' });
  let clock = 0;
  for (const file of files) {
    for (const [id, board] of Object.entries(file.boards)) {
      const known = state.boards[id];
      clock = Math.max(clock, board.named[0], board.lived[0]);
      if (!known) {
        state.boards[id] = { ...board };
        continue;
      }
      if (after(board.named, known.named)) Object.assign(known, { name: board.name, named: board.named });
      if (after(board.lived, known.lived)) Object.assign(known, { alive: board.alive, lived: board.lived });
      known.createdAt = Math.min(known.createdAt, board.createdAt);
    }
    for (const [id, images] of Object.entries(file.images)) {
      const into = (state.images[id] ??= {});
      for (const [image, entry] of Object.entries(images)) {
        clock = Math.max(clock, entry[1]);
        const known = into[image];
        if (!known || after([entry[1], entry[2]], [known[1], known[2]])) into[image] = entry;
      }
    }
  }
  return { state, clock };
}

/**
 * The library's boards (collections), merge-safe for a team: each person's changes are their own
 * file in `.studio/boards/`, and every read merges all of them (and the library's collections.json
 * from before, and sync tools' conflict copies), so two people adding to or taking from boards at
 * the same time lose nothing. A board's name, its life and each image's place in it go to the last
 * change in the team's order (`Stamp`). A library folder copied to another machine keeps them.
 */
export class Collections {
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private root: () => string,
    private person: () => { id: string; name: string } = () => ({ id: 'studio', name: '' }),
  ) {}

  private dir(): string {
    return join(this.root(), BOARDS_DIR);
  }

  /** Every file that holds board changes: the legacy file as a person '' at the start of time, then each person's. */
  private async files(): Promise<{
    files: PersonBoards[];
    mine: PersonBoards;
    copies: string[];
    damaged: string[];
  }> {
    const me = this.person();
    const files: PersonBoards[] = [await this.legacy()];
    let mine = empty(me);
    const copies: string[] = [];
    const damaged: string[] = [];
    const names = await readdir(this.dir()).catch((err: unknown) => {
      logCaughtUnlessMissing('boards folder listing', err);
      return [] as string[];
    });
    const present = new Set(names);
    for (const name of names) {
      const original = syncConflictOf(name, present)?.original ?? name;
      if (!personIdOfFile(original)) continue;
      const own = original === `${me.id}.json`;
      let text: string;
      try {
        text = await readFile(join(this.dir(), name), 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        // One's own board changes that cannot be read now (a share's hiccup) are not none: a
        // change waits rather than writing the file again without them.
        if (own && name === original) throw err;
        logCaught('boards file read', err);
        continue;
      }
      let parsed: ReturnType<typeof personFileSchema.safeParse> | undefined;
      try {
        parsed = personFileSchema.safeParse(JSON.parse(text));
      } catch {
        parsed = undefined;
      }
      // One person's damaged or foreign file costs only their board changes; one's own damaged
      // file is kept beside, for whoever wants to look, and begun again.
      if (!parsed?.success || `${parsed.data.person.id}.json` !== original) {
        if (own && name === original) damaged.push(name);
        continue;
      }
      files.push(parsed.data);
      if (parsed.data.person.id === me.id) {
        mine = merge([mine, parsed.data]).state;
        if (name !== original) copies.push(name);
      }
    }
    mine.person = me;
    return { files, mine, copies, damaged };
  }

  private async legacy(): Promise<PersonBoards> {
    const legacy = empty({ id: '', name: '' });
    try {
      const parsed = legacySchema.safeParse(
        JSON.parse(await readFile(join(this.root(), COLLECTIONS_FILE), 'utf8')),
      );
      for (const c of parsed.success ? parsed.data.collections : []) {
        legacy.boards[c.id] = {
          name: c.name,
          named: [0, ''],
          createdAt: c.createdAt,
          alive: true,
          lived: [0, ''],
        };
        legacy.images[c.id] = Object.fromEntries(c.images.map((image) => [image, [true, 0, ''] as const]));
      }
    } catch (err) {
      logCaughtUnlessMissing('collections.json read', err);
    }
    return legacy;
  }

  /** What the team's boards are now; a damaged file is reported in the log and costs only its changes. */
  async read(): Promise<StoredCollection[]> {
    const { state } = merge((await this.files()).files);
    return Object.entries(state.boards)
      .filter(([, board]) => board.alive)
      .map(([id, board]) => ({
        id,
        name: board.name,
        createdAt: board.createdAt,
        images: Object.entries(state.images[id] ?? {})
          .filter(([, [present]]) => present)
          .map(([image]) => image),
      }));
  }

  /**
   * Time and size of every file board changes come from: it differs whenever anyone's boards
   * changed, so the catalog reads them again only then.
   */
  async signature(): Promise<string> {
    const parts: string[] = [];
    for (const path of [join(this.root(), COLLECTIONS_FILE), this.dir()]) {
      const s = await stat(path).catch(() => undefined);
      parts.push(s ? `${s.mtimeMs}:${s.size}` : '-');
    }
    const names = await readdir(this.dir()).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const s = await stat(join(this.dir(), name)).catch(() => undefined);
      parts.push(`${name}:${s ? `${s.mtimeMs}:${s.size}` : '-'}`);
    }
    return parts.join('|');
  }

  /**
   * One change, one after another so quick edits never lose each other: this person's file is
   * written with the change stamped after everything anyone had done, their conflict copies folded in.
   */
  private change<T>(edit: (merged: PersonBoards, mine: PersonBoards, stamp: Stamp) => T): Promise<T> {
    const run = this.writing.then(async () => {
      const { files, mine, copies, damaged } = await this.files();
      const { state, clock } = merge(files);
      const result = edit(state, mine, [clock + 1, this.person().id]);
      await makeDir(this.dir());
      for (const name of damaged) await rename(join(this.dir(), name), join(this.dir(), damagedName(name)));
      await writeJsonAtomic(join(this.dir(), `${this.person().id}.json`), mine);
      if (copies.length) {
        await Promise.all(copies.map((name) => rm(join(this.dir(), name), { force: true })));
        await fsyncDir(this.dir());
      }
      return result;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  private static alive(state: PersonBoards, id: string) {
    const board = state.boards[id];
    if (!board?.alive)
      throw new StudioError({
        code: 'STUDIO_COLLECTION_NOT_FOUND',
        message: 'That collection no longer exists.',
      });
    return board;
  }

  create(name: string, images: string[] = []): Promise<StoredCollection> {
    const clean = cleanName(name);
    return this.change((_, mine, stamp) => {
      const id = randomUUID();
      const createdAt = Date.now();
      mine.boards[id] = { name: clean, named: stamp, createdAt, alive: true, lived: stamp };
      const unique = [...new Set(images)];
      mine.images[id] = Object.fromEntries(unique.map((image) => [image, [true, ...stamp] as const]));
      return { id, name: clean, createdAt, images: unique };
    });
  }

  rename(id: string, name: string): Promise<void> {
    const clean = cleanName(name);
    return this.change((state, mine, stamp) => {
      const board = Collections.alive(state, id);
      mine.boards[id] = { ...board, ...mine.boards[id], name: clean, named: stamp };
    });
  }

  remove(id: string): Promise<void> {
    return this.change((state, mine, stamp) => {
      const board = Collections.alive(state, id);
      mine.boards[id] = { ...board, ...mine.boards[id], alive: false, lived: stamp };
    });
  }

  /** Adds images (or takes them out); answers how many were not there before (or were there). */
  setImages(id: string, images: string[], present: boolean): Promise<number> {
    return this.change((state, mine, stamp) => {
      Collections.alive(state, id);
      const now = state.images[id] ?? {};
      const into = (mine.images[id] ??= {});
      let changed = 0;
      for (const image of new Set(images)) {
        if ((now[image]?.[0] ?? false) !== present) changed++;
        into[image] = [present, ...stamp];
      }
      return changed;
    });
  }
}
