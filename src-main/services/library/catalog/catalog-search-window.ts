import type { CatalogDb } from './catalog-db';
import type { searchMatches } from './catalog-search';

/** Matches read, from the highest rowid down, for a first window of this many. */
const CANDIDATES_PER_ROW = 2;

type Key = { row: number; created_at: number; folder: number };

/** The newest order (catalog-list-sql.ts ORDER.newest): negative when `a` comes first. */
const newestFirst = (a: Key, b: Key) => b.created_at - a.created_at || b.folder - a.folder || a.row - b.row;

/**
 * The first window of a one-word search in the newest order, without reading every match: the
 * word's matches with the highest rowids, taken from the full-text index in its own order and
 * stopped after a few hundred. Images are added to the catalog as their batches arrive, so the
 * highest rowids are nearly always the newest images; this is checked, not assumed: the window
 * holds when the newest of all images below the lowest rowid read (the order's index walked from
 * its top, stopping at the first) is older than the window's last image. Otherwise, or for
 * anything else (another order, more words, a later window), `undefined`: the caller reads every
 * match (catalog-search-matches.ts).
 */
export function newestSearchWindow(
  db: CatalogDb,
  matches: ReturnType<typeof searchMatches>,
  limit: number,
): number[] | undefined {
  if (matches.length !== 1 || limit <= 0) return undefined;
  const [m] = matches as [(typeof matches)[number]];
  const wanted = limit * CANDIDATES_PER_ROW;
  const found = db
    .prepare(
      `select images.rowid as row, images.created_at, images.folder from images
       where images.rowid in (${m.sql} order by rowid desc limit ?)`,
    )
    .all(m.param, wanted) as Key[];
  found.sort(newestFirst);
  // Fewer than asked for: these are all the matches.
  if (found.length < wanted) return found.slice(0, limit).map((k) => k.row);
  const last = found[limit - 1]!;
  const lowest = Math.min(...found.map((k) => k.row));
  const below = db
    .prepare(
      `select created_at, folder from images indexed by images_newest where rowid < ?
       order by created_at desc, folder desc limit 1`,
    )
    .get(lowest) as Omit<Key, 'row'> | undefined;
  // Strictly older: an image of the same folder below the lowest rowid would come before it.
  const holds =
    !below ||
    below.created_at < last.created_at ||
    (below.created_at === last.created_at && below.folder < last.folder);
  return holds ? found.slice(0, limit).map((k) => k.row) : undefined;
}
