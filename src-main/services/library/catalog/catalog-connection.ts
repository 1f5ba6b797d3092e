import { logCaught } from '../../log/studio-log';
import { isCorrupt, openCatalog, reopenCatalog, type CatalogDb } from './catalog-db';

/**
 * The open catalog of the current library folder, the one door to it for indexing, reading and
 * marks: a new folder in Settings opens its own, and a catalog found damaged in use is replaced.
 */
export class CatalogConnection {
  private db?: CatalogDb;
  private root = '';
  private file = '';
  private revisions = 0;

  /**
   * @param libraryRoot the library folder Settings names now
   * @param catalogFileOf where this studio keeps the catalog of a library folder (its data folder)
   * @param rebuilt called once a damaged catalog has been replaced by an empty one, to fill it
   *   again from the folders (the owner of indexing wires it: this file knows nothing of folders)
   */
  constructor(
    private libraryRoot: () => string,
    private catalogFileOf: (root: string) => string,
    private rebuilt: () => void,
  ) {}

  /** The library folder whose catalog is open. */
  get openRoot(): string {
    return this.root;
  }

  /** Whether the catalog of the library folder Settings names now is the one open. */
  get current(): boolean {
    return this.db !== undefined && this.libraryRoot() === this.root;
  }

  /**
   * Goes up whenever what the catalog holds may have changed as a whole: another file opened
   * (another library folder, a rebuild) or indexing having read folders or collections. What is
   * worked out from the catalog (the overview) holds for one revision. Marks do not count: the
   * overview shows none.
   */
  get revision(): number {
    return this.revisions;
  }

  /** Indexing says it changed folders or collections: what was worked out before is stale. */
  noteChange(): void {
    this.revisions++;
  }

  /** The open catalog of the current library folder; a new folder in Settings opens its own. */
  private database(): CatalogDb {
    const root = this.libraryRoot();
    if (this.db && root === this.root) return this.db;
    this.db?.close();
    this.file = this.catalogFileOf(root);
    this.db = openCatalog(this.file).db;
    this.root = root;
    this.revisions++;
    return this.db;
  }

  /**
   * Runs a read or write on the catalog. A catalog found damaged in use is deleted, made again
   * from the folders, and the work tried once more on the new one.
   */
  use<T>(work: (db: CatalogDb) => T): T {
    const db = this.database();
    try {
      return work(db);
    } catch (err) {
      if (!isCorrupt(err)) throw err;
      logCaught('library catalog damaged in use: rebuilding', err);
      this.db = reopenCatalog(db, this.file).db;
      this.revisions++;
      this.rebuilt();
      return work(this.db);
    }
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
  }
}
