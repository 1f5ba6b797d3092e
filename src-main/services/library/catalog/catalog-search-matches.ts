import type { CatalogDb } from './catalog-db';
import type { searchMatches } from './catalog-search';

/** Where the last search's matches are kept: this connection's own, in memory, never in the library. */
export const MATCHES_TABLE = 'temp.search_matches';

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
    const count = db
      .prepare(
        `insert into ${MATCHES_TABLE} select * from (${matches.map((m) => m.sql).join(' intersect ')})`,
      )
      .run(...matches.map((m) => m.param)).changes;
    if (stable) this.held = { db, revision, key, count };
    return count;
  }
}
