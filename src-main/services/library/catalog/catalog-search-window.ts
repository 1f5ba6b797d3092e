import type { CatalogDb } from './catalog-db';
import type { searchMatches } from './catalog-search';

/** Matches read, from the highest rowid down, for a first window of this many. */
const CANDIDATES_PER_ROW = 2;

type Key = { row: number; created_at: number; folder: number };

/** The newest order (catalog-list-sql.ts ORDER.newest): negative when `a` comes first. */
const newestFirst = (a: Key, b: Key) => b.created_at - a.created_at || b.folder - a.folder || a.row - b.row;

/**
 * The first window of a one-word search in the newest order, without reading every match: the
 * word's matches with the highest and the lowest rowids, taken from the full-text index in its
 * own order, a few hundred from each end. Images are catalogued in runs (a first build reads the
 * newest folders first; batches arriving later are added after them), so the newest images are
 * nearly always at one end or the other. This is checked, not assumed: the window holds when the
 * newest of all images between the two ends (the order's index walked from its top, stopping at
 * the first) is older than the window's last image. Otherwise, or for anything else (another
 * order, more words, a later window), `undefined`: the caller reads every match
 * (catalog-search-matches.ts).
 */
export function newestSearchWindow(
  db: CatalogDb,
  matches: ReturnType<typeof searchMatches>,
  limit: number,
): number[] | undefined {
  if (matches.length !== 1 || limit <= 0) return undefined;
  const [m] = matches as [(typeof matches)[number]];
  const wanted = limit * CANDIDATES_PER_ROW;
  const end = (direction: 'asc' | 'desc') =>
    db
      .prepare(
        `select images.rowid as row, images.created_at, images.folder from images
         where images.rowid in (${m.sql} order by rowid ${direction} limit ?)`,
      )
      .all(m.param, wanted) as Key[];
  const high = end('desc');
  const found = high.length < wanted ? high : [...high, ...end('asc')];
  const unique = [...new Map(found.map((k) => [k.row, k])).values()].sort(newestFirst);
  const window = unique.slice(0, limit).map((k) => k.row);
  // Fewer than asked for from one end: these are all the matches.
  if (high.length < wanted) return window;
  const last = unique[limit - 1]!;
  const lowestHigh = Math.min(...high.map((k) => k.row));
  const highestLow = Math.max(...found.slice(high.length).map((k) => k.row));
  if (highestLow >= lowestHigh) return window;
  const between = db
    .prepare(
      `select created_at, folder from images indexed by images_newest where rowid > ? and rowid < ?
       order by created_at desc, folder desc limit 1`,
    )
    .get(highestLow, lowestHigh) as Omit<Key, 'row'> | undefined;
  // Strictly older: an image of the same folder between the ends could come before it.
  const holds =
    !between ||
    between.created_at < last.created_at ||
    (between.created_at === last.created_at && between.folder < last.folder);
  return holds ? window : undefined;
}
