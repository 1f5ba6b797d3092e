import { scalar, type CatalogDb } from './catalog-db';
import { rowOf } from './catalog-ids';
import { where, type Filter } from './catalog-list-sql';

interface Keys {
  created_at: number;
  folder: number;
  stars: number;
  prompt: string;
  rowid: number;
}

/** Newest first, tie for tie as catalog-list-sql.ts's ORDER: later, then a later folder, then the folder's order. */
const newest = (k: Keys) => ({
  sql: `(images.created_at > ? or (images.created_at = ? and (images.folder > ? or (images.folder = ? and images.rowid < ?))))`,
  params: [k.created_at, k.created_at, k.folder, k.folder, k.rowid],
});

/** The condition that an image comes before the one with these keys, in each order of ORDER. */
const BEFORE: Record<Filter['sort'], (k: Keys) => { sql: string; params: (string | number)[] }> = {
  newest,
  oldest: (k) => ({
    sql: `(images.created_at < ? or (images.created_at = ? and (images.folder < ? or (images.folder = ? and images.rowid < ?))))`,
    params: [k.created_at, k.created_at, k.folder, k.folder, k.rowid],
  }),
  stars: (k) => {
    const rest = newest(k);
    return {
      sql: `(images.stars > ? or (images.stars = ? and ${rest.sql}))`,
      params: [k.stars, k.stars, ...rest.params],
    };
  },
  // Case-blind, as the order compares prompts.
  prompt: (k) => ({
    sql: `(images.prompt collate nocase < ? or (images.prompt collate nocase = ?
      and (images.folder < ? or (images.folder = ? and images.rowid < ?))))`,
    params: [k.prompt, k.prompt, k.folder, k.folder, k.rowid],
  }),
};

/**
 * Where the image with this id is in the filtered, sorted list (from 0), or null where the list
 * does not hold it: what the gallery's focus and the loupe follow when images arrive above them.
 * A count of the images before it: one pass over the list up to it (0.02–0.2 s deep in a million,
 * the stars order the slowest), so asked only where the list moved under an image on screen.
 */
export function positionOf(db: CatalogDb, filter: Filter, id: string): number | null {
  const row = rowOf(db, id);
  if (row === undefined) return null;
  const w = where(db, filter);
  const and = w.sql ? `${w.sql} and` : 'where';
  // Its keys, where the list holds it.
  const keys = db
    .prepare(`select created_at, folder, stars, prompt, rowid from images ${and} images.rowid = ?`)
    .get(...w.params, row) as Keys | undefined;
  if (!keys) return null;
  const before = BEFORE[filter.sort](keys);
  return scalar(db, `select count(*) from images ${and} ${before.sql}`, ...w.params, ...before.params);
}
