import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'libsql';
import { logCaught, logInfo } from '../../log/studio-log';
import { makeDirSync } from '../../storage/atomic-file';

/** Bumped whenever the tables change: an older catalog is dropped and rebuilt from the folders. */
const SCHEMA_VERSION = 10;

/** An image with a mark or stars of anyone's: images_worked_marked's images (catalog-what-worked.ts). */
export const MARKED_SQL =
  'images.mark is not null or images.stars > 0 or images.marked > 0 or images.team_starred > 0';

// Sized for a million images (issue 26): what a batch folder says once (its batch, task, model,
// run and time) is kept once in `folders`, and an image points at its folder by number; an
// image's id is not stored but made of its folder's name and its file (catalog-ids.ts). A folder's
// images are written in their folder order in one go, so their rowids follow that order: no `ord`.
const SCHEMA = `
-- One row a batch folder: what the filters list (batches, models) comes from here, not from
-- grouping every image. Its id is kept when the folder is read again, so the images' order by
-- folder (the tie-break within one second) does not move.
create table if not exists folders (
  id integer primary key,
  name text not null unique,
  signature text not null,
  problem text,
  batch_id text,
  task_name text,
  model text,
  -- The run (one draft on several models) its batch was one model of.
  run_id text,
  created_at integer,
  images integer not null default 0
);
create index if not exists folders_batch on folders(batch_id);
create index if not exists folders_time on folders(created_at);
create index if not exists folders_run on folders(run_id) where run_id is not null;
create table if not exists images (
  rowid integer primary key,
  folder integer not null,
  file text not null,
  custom_id text not null,
  prompt text not null,
  row_index integer,
  -- The folder's time, here too: the orders by time walk one index of the images.
  created_at integer not null,
  -- Null for the usual image/png (catalog-list-sql.ts).
  mime text,
  bytes integer not null,
  -- This studio's person's own mark and stars (team-marks.ts: theirs, else the earlier review.json's).
  mark text,
  stars integer not null default 0,
  -- The team's marks added up (team-marks.ts), for the team filters: picks, rejects, people with a
  -- mark, and 1 where they differ. Zero for nearly every image: a byte each.
  picks integer not null default 0,
  rejects integer not null default 0,
  marked integer not null default 0,
  split integer not null default 0,
  -- The perceptual hash (dHash, 8 bytes) from the folder's hashes.json, and the near-duplicate
  -- stack it is in: its first image's rowid and its size (null for an image alone, or not hashed).
  phash blob,
  stack_leader integer,
  stack_size integer,
  -- The same at the "similar" level (a looser threshold): a group holds whole stacks.
  similar_leader integer,
  similar_size integer,
  -- Its prompt's parts (prompt_parts.id); null for a prompt without (typed by hand, older batches).
  parts integer,
  -- The same parts as "What worked" groups them (catalog-parts.ts): the variables' names as one
  -- number (part_shapes), and the first six values as numbers (part_texts) in the template's
  -- order, so grouping by a value reads the image's own index entry and never its combination.
  shape integer,
  v0 integer,
  v1 integer,
  v2 integer,
  v3 integer,
  v4 integer,
  v5 integer,
  -- The team's stars as team-marks.ts counts them: the people who gave stars, and those stars added.
  team_starred integer not null default 0,
  team_stars integer not null default 0
);
-- An image by its id (folder and file), and a folder's images.
create unique index if not exists images_file on images(folder, file);
create index if not exists images_unhashed on images(rowid) where phash is null;
-- The orders' indexes end at the folder: within a folder the rowid, which every index entry ends
-- with, is the folder's order. Newest and oldest keep an index each: one walked backward would
-- give a folder's images backward, and sorting them back costs the last window 5x.
create index if not exists images_newest on images(created_at desc, folder desc);
create index if not exists images_oldest on images(created_at, folder);
-- The starred images only (few): stars then newest merges them with the newest-first walk.
create index if not exists images_starred on images(stars desc, created_at desc, folder desc) where stars > 0;
create index if not exists images_prompt on images(prompt collate nocase, folder);
-- Most images have no mark: the review filters' index holds the marked ones only.
create index if not exists images_mark on images(mark) where mark is not null;
-- The images anyone marked: the team filters walk these only.
create index if not exists images_team on images(marked, picks) where marked > 0;
-- Every person's entry for an image, as the folders' review files hold it ('' for the earlier
-- review.json); entries taken back (no mark, no stars) stay, as they hide the earlier one.
create table if not exists team_marks (
  image integer not null,
  person text not null,
  mark text,
  stars integer not null default 0,
  primary key (image, person)
) without rowid;
create index if not exists team_marks_person on team_marks(person);
-- The names people gave themselves, from their review files.
create table if not exists people (id text primary key, name text not null);
-- The two full-text indexes keep no text (content = '') and no lengths (columnsize = 0: nothing
-- ranks by them): a row is taken out by giving back the terms it went in with, which
-- catalog-search.ts makes again from the row. A change to how it makes them bumps SCHEMA_VERSION.
-- Chinese of three characters and more, found anywhere in a run: "青花瓷" in "一只青花瓷杯".
create virtual table if not exists images_text using fts5(
  text, tokenize = 'trigram', content = '', columnsize = 0
);
-- Latin words (found by their start: the prefix indexes make "so" as quick as "soft"), and Chinese
-- as single characters and pairs ("青花", "猫"), which the trigram index cannot answer. Every query
-- of it is one term, so it keeps which rows hold a term and not where in them (detail = none):
-- a third of the size.
create virtual table if not exists images_terms using fts5(
  terms, tokenize = 'unicode61', prefix = '1 2 3', detail = none, content = '', columnsize = 0
);
create table if not exists meta (key text primary key, value text not null);
-- collections.json as a table, so the Library can filter by a board in SQL.
create table if not exists collections (id text primary key, name text not null, created_at integer not null);
create table if not exists collection_items (
  collection_id text not null,
  image_id text not null,
  primary key (collection_id, image_id)
);
create index if not exists collection_items_image on collection_items(image_id);
-- Lineage: which library images an image was made from (references, realtime inputs).
create table if not exists image_sources (image_id text not null, source_id text not null);
create index if not exists image_sources_image on image_sources(image_id);
create index if not exists image_sources_source on image_sources(source_id);
-- The parts of prompts (src-shared/prompt-parts.ts): one row per distinct template and values
-- (a draft row's, shared by its images on every model), which an image points at (images.parts).
-- "What worked" groups the filtered images by that number in one pass over them, and reads the
-- few combinations' values here (catalog-what-worked.ts). Rows no image points at any more are
-- harmless, and go with the next rebuild.
create table if not exists prompt_parts (
  id integer primary key,
  -- The template and the values as JSON: one row per distinct pair.
  key text not null unique,
  template text,
  -- [[name, value], ...] in the template's order.
  vals text not null
);
-- Each combination's values by name: the Library's filter by a part ("open this row").
create table if not exists part_values (
  combo integer not null,
  name text not null,
  value text not null,
  -- Its place in the template (the order the variables are listed in).
  ord integer not null,
  primary key (combo, name)
) without rowid;
create index if not exists part_values_value on part_values(name, value);
create index if not exists images_parts on images(parts) where parts is not null;
-- The names of a template's variables, in its order, as JSON: one row per distinct list.
create table if not exists part_shapes (id integer primary key, names text not null unique);
-- Each variable's values, a number each: what images.v0..v5 hold.
create table if not exists part_texts (
  id integer primary key,
  name text not null,
  value text not null,
  unique (name, value)
);
-- What "What worked" adds up, for every image, in the order it groups them (folder, names, then
-- values in the template's order): the view walks this index alone, with no visit of the rows
-- and, grouping by the first variables, no sort (about 30 bytes an image).
create index if not exists images_worked on images(folder, shape, v0, v1, v2, v3, v4, v5, parts, mark, stars,
  picks, rejects, marked, split, team_starred, team_stars, created_at);
-- The same for the images with a mark or stars of anyone's (a tenth or so), which What worked adds up
-- in a second walk: that walk skips the others.
create index if not exists images_worked_marked on images(folder, shape, v0, v1, v2, v3, v4, v5, parts, mark,
  stars, picks, rejects, marked, split, team_starred, team_stars, created_at) where ${MARKED_SQL};
`;

export type CatalogDb = Database.Database;

/** One number from SQL. (libsql's `pluck()` applies to `all()` only, not to `get()`.) */
export function scalar(db: CatalogDb, sql: string, ...params: unknown[]): number {
  const row = db
    .prepare(sql)
    .raw()
    .get(...params) as unknown[] | undefined;
  return Number(row?.[0] ?? 0);
}

/** SQLite saying the file is not (or no longer) a database it can read. */
export function isCorrupt(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? '';
  return /SQLITE_(CORRUPT|NOTADB)/.test(code);
}

function removeCatalog(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
}

function create(path: string): CatalogDb {
  const db = new Database(path);
  // The catalog is a cache of the folders: losing its last writes to a power cut costs a re-read,
  // never data, so it trades durability for speed.
  db.exec(
    'pragma journal_mode = wal; pragma synchronous = normal; pragma temp_store = memory; pragma busy_timeout = 2000;',
  );
  const version = scalar(db, 'pragma user_version');
  if (version !== SCHEMA_VERSION) {
    if (version !== 0) throw Object.assign(new Error('older catalog'), { code: 'SQLITE_NOTADB' });
    db.exec(SCHEMA);
    db.exec(`pragma user_version = ${SCHEMA_VERSION}`);
  }
  return db;
}

/**
 * Opens a library's catalog at `path` (in the studio's own data folder: library-home.ts; never in
 * the library, which other studios share), building its tables on first use. A catalog SQLite
 * cannot read (a crash mid-write on a bad disk, an older version) is deleted and made again; a
 * place the catalog cannot be written gets one in memory, rebuilt at each start.
 */
export function openCatalog(path: string): { db: CatalogDb; where: 'disk' | 'memory'; rebuilt: boolean } {
  try {
    makeDirSync(dirname(path));
    try {
      return { db: create(path), where: 'disk', rebuilt: false };
    } catch (err) {
      if (!isCorrupt(err)) throw err;
      logInfo(`library catalog at ${path} is unreadable (${(err as { code?: string }).code}): rebuilding it`);
      removeCatalog(path);
      return { db: create(path), where: 'disk', rebuilt: true };
    }
  } catch (err) {
    logCaught('library catalog open (kept in memory instead)', err);
    return { db: create(':memory:'), where: 'memory', rebuilt: true };
  }
}

/** Deletes a catalog found damaged while in use, and opens a new one in its place. */
export function reopenCatalog(db: CatalogDb, path: string): ReturnType<typeof openCatalog> {
  try {
    db.close();
  } catch {
    // Closing a damaged database may fail too; the file is removed either way.
  }
  removeCatalog(path);
  return openCatalog(path);
}
