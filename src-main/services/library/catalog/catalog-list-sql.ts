import type { StackLevel } from '../../../../src-shared/image-stacks';
import type { LibraryImage, ReviewMark } from '../../../../src-shared/library-view';
import { libraryFilterSchema } from '../../../../src-shared/library-view';
import { scalar, type CatalogDb } from './catalog-db';
import { ID_SQL, rowOf, rowOfColumn } from './catalog-ids';
import { searchMatches } from './catalog-search';
import { stackScope } from './catalog-stack-scope';

/**
 * The gallery's list as SQL: which images a filter keeps, in which order, and what a row of it
 * says. An image's batch facts and its id come from its folder (`f`): see catalog-db.ts.
 */

export type Filter = ReturnType<typeof libraryFilterSchema.parse>;

/** Images with their folders: images first, so the order's index of the images is what is walked. */
export const FROM = 'images cross join folders f on f.id = images.folder';

/**
 * Within one folder the rowid is the folder's own order (catalog-db.ts). Stars then newest is
 * walked as two lists merged (`windowSql`): the starred images by their own index, the rest by
 * the newest-first one, instead of an index of every image by stars.
 */
export const ORDER: Record<Filter['sort'], string> = {
  newest: 'images.created_at desc, images.folder desc, images.rowid',
  oldest: 'images.created_at, images.folder, images.rowid',
  stars: 'images.stars desc, images.created_at desc, images.folder desc, images.rowid',
  prompt: 'images.prompt collate nocase, images.folder, images.rowid',
};

/** Each order backward, exactly (the rowid breaks every tie): its index walked from the other end. */
export const REVERSED: Record<Filter['sort'], string> = {
  newest: 'images.created_at, images.folder, images.rowid desc',
  oldest: 'images.created_at desc, images.folder desc, images.rowid desc',
  stars: 'images.stars, images.created_at, images.folder, images.rowid desc',
  prompt: 'images.prompt collate nocase desc, images.folder desc, images.rowid desc',
};

/** The index each order walks; a search with many matches walks it instead of sorting them all. */
const ORDER_INDEX: Record<Filter['sort'], string> = {
  newest: 'images_newest',
  oldest: 'images_oldest',
  // The unstarred images' part of it (the starred are few).
  stars: 'images_newest',
  prompt: 'images_prompt',
};

/**
 * The statement for a stretch of the filtered list (`limit ? offset ?` left to bind), answering
 * `column` (the rowid, or ID_SQL) of each image: `walk` follows the order's index whatever the
 * filter (a search with many matches), `reversed` reads the list from its end. The stars order
 * is a merge of two walks, the starred images and the others, each in its index's order (SQLite
 * merges a compound select's sorted arms without sorting them).
 */
export function windowSql(
  sort: Filter['sort'],
  w: { sql: string; params: (string | number)[] },
  options: { column: string; walk: boolean; reversed: boolean },
): { sql: string; params: (string | number)[] } {
  // The folders are joined only for an id: a window's rowids are found without them.
  const base = options.column === 'images.rowid' ? 'images' : FROM;
  const from = options.walk ? base.replace('images', `images indexed by ${ORDER_INDEX[sort]}`) : base;
  if (sort !== 'stars')
    return {
      sql: `select ${options.column} from ${from} ${w.sql}
            order by ${(options.reversed ? REVERSED : ORDER)[sort]} limit ? offset ?`,
      params: w.params,
    };
  const arm = (condition: string, source: string) =>
    `select ${options.column}, images.stars, images.created_at, images.folder, images.rowid from ${source}
     ${w.sql ? `${w.sql} and` : 'where'} ${condition}`;
  return {
    sql: `${arm('images.stars > 0', base)} union all ${arm('images.stars = 0', from)}
          order by ${options.reversed ? '2, 3, 4, 5 desc' : '2 desc, 3 desc, 4 desc, 5'} limit ? offset ?`,
    params: [...w.params, ...w.params],
  };
}

/** A stack's first image by its id; only the rows shown pay for it. */
const leaderId = (column: string) =>
  `(select lf.name || '/' || l.file from images l join folders lf on lf.id = l.folder where l.rowid = images.${column})`;

/** The type nearly every image has (a batch record's default): stored as null, 10 bytes an image. */
export const USUAL_MIME = 'image/png';

export const COLUMNS = `images.rowid as row, ${ID_SQL} as id, f.batch_id, f.task_name, f.model, f.run_id,
  images.custom_id, images.prompt, images.created_at, coalesce(images.mime, '${USUAL_MIME}') as mime, images.bytes, images.mark, images.stars,
  f.name as folder, images.file, images.row_index, ${leaderId('stack_leader')} as stack_leader, images.stack_size,
  ${leaderId('similar_leader')} as similar_leader, images.similar_size`;

export interface Row {
  row: number;
  id: string;
  batch_id: string;
  task_name: string;
  model: string;
  run_id: string | null;
  custom_id: string;
  prompt: string;
  created_at: number;
  mime: string;
  bytes: number;
  mark: ReviewMark;
  stars: number;
  folder: string;
  file: string;
  row_index: number | null;
  stack_leader: string | null;
  stack_size: number | null;
  similar_leader: string | null;
  similar_size: number | null;
}

/** A row as the studio shows it, with its stack at the level the list asked for. */
export const imageAt =
  (level: StackLevel = 'near') =>
  (r: Row): LibraryImage => {
    const [leader, size] =
      level === 'similar' ? [r.similar_leader, r.similar_size] : [r.stack_leader, r.stack_size];
    return {
      id: r.id,
      batchId: r.batch_id,
      taskName: r.task_name,
      model: r.model,
      customId: r.custom_id,
      prompt: r.prompt,
      createdAt: r.created_at,
      mime: r.mime,
      bytes: r.bytes,
      mark: r.mark,
      stars: r.stars,
      ...(leader && size ? { stack: { leader, size, level } } : {}),
    };
  };

/**
 * The rows of these images, in this order. A window is found first by rowid alone, so what only the
 * rows shown need (their folder, their stack's first image) is not worked out for rows skipped or
 * sorted.
 */
export function rowsOf(db: CatalogDb, rowids: number[]): Row[] {
  if (!rowids.length) return [];
  const rows = db
    .prepare(`select ${COLUMNS} from ${FROM} where images.rowid in (${rowids.map(Number).join(',')})`)
    .all() as Row[];
  const byRow = new Map(rows.map((r) => [r.row, r]));
  return rowids.map((r) => byRow.get(r)).filter((r): r is Row => r !== undefined);
}

/**
 * The filters as one SQL condition on `images`; the search words go through the two full-text
 * indexes, or, with `matchesIn`, through a table already holding what they match
 * (catalog-search-matches.ts).
 */
export function where(
  db: CatalogDb,
  f: Filter,
  matchesIn?: string,
): {
  sql: string;
  params: (string | number)[];
  matches: ReturnType<typeof searchMatches>;
  searchOnly: boolean;
} {
  const matches = searchMatches(f.search);
  const held = matchesIn !== undefined && matches.length > 0;
  const sql = held
    ? [`images.rowid in (select id from ${matchesIn})`]
    : matches.map((m) => `images.rowid in (${m.sql})`);
  const params: (string | number)[] = held ? [] : matches.map((m) => m.param);
  const searchConditions = sql.length;
  const add = (condition: string, ...values: (string | number)[]) => {
    sql.push(condition);
    params.push(...values);
  };
  if (f.batchId) add('images.folder in (select id from folders where batch_id = ?)', f.batchId);
  if (f.collectionId)
    add(
      `images.rowid in (select ${rowOfColumn('c.image_id')} from collection_items c where c.collection_id = ?)`,
      f.collectionId,
    );
  if (f.model) add('images.folder in (select id from folders where model = ?)', f.model);
  if (f.from !== undefined) add('images.created_at >= ?', f.from);
  if (f.to !== undefined) add('images.created_at < ?', f.to);
  if (f.whose === 'anyone') anyoneMarked(f.review, add);
  else if (f.review === 'unrated') add('images.mark is null and images.stars = 0');
  else if (f.review !== 'any') add('images.mark = ?', f.review);
  // The team's filters: images anyone marked are few, and their index (images_team) holds only those.
  if (f.agreement === 'agree') add('images.marked >= 2 and images.split = 0');
  if (f.agreement === 'disagree') add('images.marked > 0 and images.split = 1');
  if (f.minPicks !== undefined) add('images.marked > 0 and images.picks >= ?', f.minPicks);
  // Said twice: the starred images' index holds stars > 0 only, and SQLite takes it for this.
  if (f.minStars > 0) add('images.stars > 0 and images.stars >= ?', f.minStars);
  // One per stack: an image alone, or the first of its stack.
  const leader = f.stackLevel === 'similar' ? 'images.similar_leader' : 'images.stack_leader';
  if (f.stacks === 'one') add(`(${leader} is null or ${leader} = images.rowid)`);
  if (f.stackOf) {
    const row = rowOf(db, f.stackOf);
    if (row === undefined) add('0');
    else {
      // Its leader's scope, as literal folder ids: SQLite then walks those folders' images.
      const scope = stackScope(db, scalar(db, 'select folder from images where rowid = ?', row));
      add(`${leader} = ? and images.folder in (${scope.join(',')})`, row);
    }
  }
  // The prompt index is case-blind, so the same words count as the same prompt.
  if (f.promptOf) {
    const row = rowOf(db, f.promptOf);
    if (row === undefined) add('0');
    else add('images.prompt collate nocase = (select prompt from images where rowid = ?)', row);
  }
  // A part's value, or '' for images without one or with an empty one (as What worked groups them).
  for (const [name, value] of Object.entries(f.parts ?? {}))
    if (value)
      add('images.parts in (select combo from part_values where name = ? and value = ?)', name, value);
    else
      add(
        `(images.parts is null or images.parts not in (select combo from part_values where name = ? and value <> ''))`,
        name,
      );
  return {
    sql: sql.length ? `where ${sql.join(' and ')}` : '',
    params,
    matches,
    searchOnly: matches.length > 0 && sql.length === searchConditions,
  };
}

/** The review filter over everyone's marks (team-marks.ts): picked or rejected by anyone, or by nobody. */
function anyoneMarked(
  review: Filter['review'],
  add: (condition: string, ...values: (string | number)[]) => void,
) {
  if (review === 'picked') add('images.marked > 0 and images.picks > 0');
  else if (review === 'rejected') add('images.marked > 0 and images.rejects > 0');
  else if (review === 'alternative')
    add(`images.marked > 0 and images.rowid in (select image from team_marks where mark = 'alternative')`);
  else if (review === 'unrated') add('images.marked = 0 and images.mark is null and images.stars = 0');
}
