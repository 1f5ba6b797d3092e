import type Database from 'libsql';
import type { CatalogDb } from './catalog-db';

/**
 * An image's id is `<folder name>/<file>` (a folder name never holds a slash). The catalog does not
 * store it: at a million images the id, repeated in its unique index, cost 150 bytes an image.
 * It is made from the folder's name and the file, and found again by the `images_file` index.
 */

/** The id of a row of `images` joined with its folder as `f`. */
export const ID_SQL = `f.name || '/' || images.file`;

/** The folder name and the file of an id; an id without a slash names nothing. */
export function splitId(id: string): [folder: string, file: string] | undefined {
  const at = id.indexOf('/');
  return at > 0 ? [id.slice(0, at), id.slice(at + 1)] : undefined;
}

/**
 * `rowOf`'s statement, prepared once a connection: marks look up every id they change, and a
 * lookup that prepared it again took 5x as long (12 against 2.5 µs). Keyed by the connection, so a
 * catalog reopened (another library folder, a rebuild) prepares its own, and a closed one's goes.
 */
const rowOfStatements = new WeakMap<CatalogDb, Database.Statement>();

/** The rowid of the image with this id, or undefined. */
export function rowOf(db: CatalogDb, id: string): number | undefined {
  const parts = splitId(id);
  if (!parts) return undefined;
  let statement = rowOfStatements.get(db);
  if (!statement) {
    // `raw`, not `pluck`: libsql's pluck holds for `all` only (catalog-db.ts's `scalar`).
    statement = db
      .prepare(
        'select images.rowid from folders f join images on images.folder = f.id where f.name = ? and images.file = ?',
      )
      .raw();
    rowOfStatements.set(db, statement);
  }
  const row = statement.get(...parts) as [number] | undefined;
  return row?.[0];
}

/**
 * SQL for the rowid of the image whose id is in the text column `column` (of collections or
 * lineage), or null: the folder by its name, then the file within it.
 */
export function rowOfColumn(column: string): string {
  // Its own aliases, which the callers' columns never are.
  return `(select by_id.rowid from folders by_name join images by_id on by_id.folder = by_name.id
    where by_name.name = substr(${column}, 1, instr(${column}, '/') - 1)
    and by_id.file = substr(${column}, instr(${column}, '/') + 1))`;
}

/** The condition that a text id column holds an id of this folder's images (an index range). */
export function idInFolderSql(column: string): string {
  // '0' is the character after '/': the ids from "<name>/" up to, not including, "<name>0".
  return `${column} >= ? || '/' and ${column} < ? || '0'`;
}
