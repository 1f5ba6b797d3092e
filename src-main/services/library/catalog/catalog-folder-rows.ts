import { STACK_THRESHOLDS, stackLeaders } from '../../../../src-shared/image-stacks';
import type { FolderImage, FolderProblem } from '../folders/batch-folder-record';
import type { CatalogDb } from './catalog-db';
import { idInFolderSql } from './catalog-ids';
import { USUAL_MIME } from './catalog-list-sql';
import { cjkText, wordTerms } from './catalog-search';
import { stackScope } from './catalog-stack-scope';
import { NO_PARTS, partsWriter } from './catalog-parts';
import { teamCounts, type TeamEntry } from '../folders/team-marks';

/**
 * The images row's team columns (catalog-db.ts): picks, rejects, marked, split, and the stars of
 * the entries that count (people who gave any, and their sum), by the same rule as the marks.
 */
export function teamColumns(entries: readonly TeamEntry[]): [number, number, number, number, number, number] {
  const c = teamCounts(entries);
  const starred = c.counted.filter((e) => e.stars > 0);
  return [
    c.picks,
    c.rejects,
    c.marked,
    c.split,
    starred.length,
    starred.reduce((sum, e) => sum + e.stars, 0),
  ];
}

/**
 * A batch folder's rows in the catalog: its `folders` row, its images, their full-text terms,
 * lineage and near-duplicate stacks. Called inside a transaction, one folder at a time.
 */

const folderId = (db: CatalogDb, name: string) =>
  (db.prepare('select id from folders where name = ?').raw().get(name) as [number] | undefined)?.[0];

/** The folder's images and everything that points at them, leaving its `folders` row. */
function removeImages(db: CatalogDb, folder: number, name: string): void {
  // The full-text indexes keep no copy of their text (catalog-db.ts): a row leaves them by giving
  // back the very terms it went in with, made again from the same prompt, task name and id.
  const rows = db
    .prepare(
      `select images.rowid, images.prompt, f.task_name, images.custom_id from images
       join folders f on f.id = images.folder where images.folder = ?`,
    )
    .raw()
    .all(folder) as [number, string, string, string][];
  const dropText = db.prepare(`insert into images_text (images_text, rowid, text) values ('delete', ?, ?)`);
  const dropTerms = db.prepare(
    `insert into images_terms (images_terms, rowid, terms) values ('delete', ?, ?)`,
  );
  for (const [rowid, prompt, taskName, customId] of rows) {
    const image = { prompt, taskName, customId };
    const chinese = cjkText(image);
    if (chinese) dropText.run(rowid, chinese);
    dropTerms.run(rowid, wordTerms(image));
  }
  db.prepare(`delete from image_sources where ${idInFolderSql('image_id')}`).run(name, name);
  db.prepare('delete from team_marks where image in (select rowid from images where folder = ?)').run(folder);
  db.prepare('delete from images where folder = ?').run(folder);
}

export function removeFolder(db: CatalogDb, name: string): void {
  const folder = folderId(db, name);
  if (folder === undefined) return;
  // The folders it stacked with: stacks that held its images (or were led by one) are made again.
  const others = stackScope(db, folder).filter((id) => id !== folder);
  removeImages(db, folder, name);
  db.prepare('delete from folders where id = ?').run(folder);
  if (others.length) restack(db, others[0]!);
}

/** Replaces the folder's rows with what was read from it, and answers its id. */
export function writeFolder(
  db: CatalogDb,
  name: string,
  signature: string,
  images: FolderImage[],
  problem: FolderProblem | undefined,
  people: ReadonlyMap<string, string> = new Map(),
): number {
  const known = folderId(db, name);
  if (known !== undefined) removeImages(db, known, name);
  // The same id as before: the folder's place among folders of the same second stays.
  const first = images[0];
  const { lastInsertRowid } = db
    .prepare(
      `insert or replace into folders (id, name, signature, problem, batch_id, task_name, model, run_id,
       created_at, images) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      known ?? null,
      name,
      signature,
      problem ? JSON.stringify(problem) : null,
      first?.batchId ?? null,
      first?.taskName ?? null,
      first?.model ?? null,
      first?.runId ?? null,
      first?.createdAt ?? null,
      images.length,
    );
  const folder = Number(lastInsertRowid);
  const insert = db.prepare(
    `insert into images (folder, file, custom_id, prompt, row_index, created_at, mime, bytes, mark, stars,
     picks, rejects, marked, split, team_starred, team_stars, phash, parts, shape, v0, v1, v2, v3, v4, v5)
     values (${Array(25).fill('?').join(', ')})`,
  );
  const entry = db.prepare(
    'insert or replace into team_marks (image, person, mark, stars) values (?, ?, ?, ?)',
  );
  const person = db.prepare('insert or replace into people (id, name) values (?, ?)');
  for (const [id, named] of people) if (id) person.run(id, named);
  const text = db.prepare('insert into images_text (rowid, text) values (?, ?)');
  const terms = db.prepare('insert into images_terms (rowid, terms) values (?, ?)');
  const source = db.prepare('insert into image_sources (image_id, source_id) values (?, ?)');
  const partsOf = partsWriter(db);
  // In the folder's order, one after another: their rowids are that order (catalog-db.ts).
  for (const i of [...images].sort((a, b) => a.ord - b.ord)) {
    const row = insert.run(
      folder,
      i.file,
      i.customId,
      i.prompt,
      i.rowIndex,
      i.createdAt,
      i.mime === USUAL_MIME ? null : i.mime,
      i.bytes,
      i.mark,
      i.stars,
      ...teamColumns(i.team),
      i.hash ? Buffer.from(i.hash, 'hex') : null,
      ...(i.parts ? partsOf(i.parts) : NO_PARTS),
    ).lastInsertRowid;
    for (const e of i.team) entry.run(row, e.person, e.mark, e.stars);
    const chinese = cjkText(i);
    if (chinese) text.run(row, chinese);
    terms.run(row, wordTerms(i));
    for (const from of i.sources) source.run(`${name}/${i.file}`, from);
  }
  if (first) orderSameSecond(db, first.createdAt);
  return folderId(db, name)!;
}

/**
 * Batches made in the same second (a run's models) are ordered by their folders' names, as they
 * always were, and not by the order this catalog happened to read them in: the lists break ties
 * by folder id, so within such a group the ids are dealt out again in name order. The group is a
 * handful of folders; their images follow.
 */
function orderSameSecond(db: CatalogDb, createdAt: number): void {
  const group = db
    .prepare('select id from folders where created_at = ? order by name')
    .pluck()
    .all(createdAt) as number[];
  const ids = [...group].sort((a, b) => a - b);
  const moves = group.map((from, i) => [from, ids[i]!] as const).filter(([from, to]) => from !== to);
  const move = (from: number, to: number) => {
    db.prepare('update folders set id = ? where id = ?').run(to, from);
    db.prepare('update images set folder = ? where folder = ?').run(to, from);
  };
  // Through negative ids, so that no two folders hold one id midway.
  for (const [from, to] of moves) move(from, -to);
  for (const [, to] of moves) move(-to, to);
}

/**
 * The near-duplicate stacks of a folder's scope again (catalog-stack-scope.ts): images within a
 * level's threshold group transitively (src-shared/image-stacks.ts), at both levels.
 */
export function restack(db: CatalogDb, folder: number): void {
  const scope = stackScope(db, folder);
  if (!scope.length) return;
  const members = db
    .prepare(
      `select rowid, phash from images where folder in (${scope.join(',')})
       order by created_at, folder, rowid`,
    )
    .raw()
    .all() as [number, Buffer | null][];
  const images = members.map(([row, hash]) => ({
    id: String(row),
    hash: hash ? hash.toString('hex') : null,
    // All of one scope: the query kept to it.
    scope: '',
  }));
  const near = stackSizes(stackLeaders(images, STACK_THRESHOLDS.near));
  const similar = stackSizes(stackLeaders(images, STACK_THRESHOLDS.similar));
  const set = db.prepare(
    'update images set stack_leader = ?, stack_size = ?, similar_leader = ?, similar_size = ? where rowid = ?',
  );
  for (const { id } of images) set.run(...near(id), ...similar(id), Number(id));
}

/** Per image, its stack's leader (a rowid) and size, or two nulls for an image alone. */
function stackSizes(leaders: Map<string, string>): (id: string) => [number | null, number | null] {
  const sizes = new Map<string, number>();
  for (const leader of leaders.values()) sizes.set(leader, (sizes.get(leader) ?? 0) + 1);
  return (id) => {
    const leader = leaders.get(id)!;
    const size = sizes.get(leader)!;
    return size > 1 ? [Number(leader), size] : [null, null];
  };
}
