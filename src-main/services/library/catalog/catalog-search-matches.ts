import type { CatalogDb } from './catalog-db';
import type { searchMatches } from './catalog-search';

/** Where the last search's matches are kept: this connection's own, in memory, never in the library. */
export const MATCHES_TABLE = 'temp.search_matches';

/** A word looked for by its start, longer than the word index's prefixes (catalog-db.ts: 1 to 3). */
// Plain a-z and digits only: the index folds accents ("café" is held as "cafe"), which its
// vocabulary, read here as text, would not.
const LONG_PREFIX = /^"([a-z0-9]{4,})"\*$/;
/** Up to this many words of the index starting with it are asked for one by one instead. */
const MAX_TERMS = 4;

/** The word index's vocabulary, as a table of this connection (nothing stored). */
const vocabulary = (db: CatalogDb) =>
  db.exec(
    `create virtual table if not exists temp.search_vocabulary using fts5vocab(main, images_terms, 'row')`,
  );

/**
 * A word looked for by its start ("walnu"), as the few words of the index it starts ("walnut",
 * "walnuts"). FTS5 answers a prefix longer than its prefix indexes by merging the lists of every
 * word it starts into one first, which took four to six times as long as reading one word's list
 * (40 ms against 7 for a word in 91,000 of a million images). The words are found in the index's
 * own vocabulary (an fts5vocab table of this connection, nothing stored): a few milliseconds.
 */
export function asTerms(db: CatalogDb, m: ReturnType<typeof searchMatches>[number]) {
  const word = LONG_PREFIX.exec(m.param)?.[1];
  if (!word || !m.sql.includes('images_terms')) return m;
  vocabulary(db);
  const terms = db
    .prepare(`select term from temp.search_vocabulary where term >= ? and term < ? limit ${MAX_TERMS + 1}`)
    .pluck()
    .all(word, `${word}\u{10ffff}`) as string[];
  if (terms.length > MAX_TERMS) return m;
  // No word starts with it: the word itself, which finds nothing as quickly.
  const param = (terms.length ? terms : [word]).map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
  return { sql: m.sql, param };
}

/** One word of the word index, as `asTerms` and searchMatches ask for it. */
const ONE_TERM = /^"([a-z0-9]+|[\u3400-\u9fff\uf900-\ufaff]+)"$/;

/**
 * How many images hold one word of the word index, from its vocabulary (which counts them in the
 * index itself: 4 ms for 91,000 images of a million, against 20 to 40 ms stepping through them);
 * undefined for anything else (several words, a word's start, the trigram index).
 */
export function termCount(db: CatalogDb, m: ReturnType<typeof searchMatches>[number]): number | undefined {
  const term = ONE_TERM.exec(m.param)?.[1];
  if (term === undefined || !m.sql.includes('images_terms')) return undefined;
  vocabulary(db);
  const row = db.prepare('select doc from temp.search_vocabulary where term = ?').raw().get(term) as
    [number] | undefined;
  return row?.[0] ?? 0;
}

/**
 * The images a search matches, read from the full-text indexes once per search and kept in a
 * temporary table of the catalog's connection (an index of rowids). A window of a search at a
 * million images used to read every match again ("rowid in (match)": 91,000 to 220,000 rows for
 * one English or Chinese word), and its count read them a second time: each keystroke's query
 * read them twice, and each window scrolled to once more. Filling the table reads them once and
 * counts them as it goes; a window then walks the order's index and looks each row up in the
 * table, stopping at the window's end.
 *
 * What the table holds is valid for one catalog (the connection may be replaced when it is found
 * damaged), one revision of it, and no indexing under way (a first build adds rows without
 * moving the revision): otherwise it is filled again.
 */
export class SearchMatches {
  private held?: { db: CatalogDb; revision: number; key: string; count: number };

  /**
   * Makes the table hold the rowids of the images every one of `matches` finds, and says how
   * many there are.
   */
  fill(db: CatalogDb, revision: number, matches: ReturnType<typeof searchMatches>, stable: boolean): number {
    const key = JSON.stringify(matches);
    const held = this.held;
    if (stable && held && held.db === db && held.revision === revision && held.key === key) return held.count;
    this.held = undefined;
    db.exec(
      `create table if not exists ${MATCHES_TABLE} (id integer primary key); delete from ${MATCHES_TABLE};`,
    );
    const exact = matches.map((m) => asTerms(db, m));
    const count = db
      .prepare(`insert into ${MATCHES_TABLE} select * from (${exact.map((m) => m.sql).join(' intersect ')})`)
      .run(...exact.map((m) => m.param)).changes;
    if (stable) this.held = { db, revision, key, count };
    return count;
  }
}
