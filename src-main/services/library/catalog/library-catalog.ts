import type {
  LibraryChanged,
  LibraryDetail,
  LibraryIdsQuery,
  LibraryPositionQuery,
  LibraryImage,
  LibraryMarkChange,
  LibraryOverview,
  LibraryQuery,
  LibraryResult,
} from '../../../../src-shared/library-view';
import { CatalogConnection } from './catalog-connection';
import type { Person } from './catalog-team';
import { CatalogIndexing, type SyncScope } from './catalog-indexing';
import { CatalogMarks, type Mark } from './catalog-marks';
import { CatalogReading } from './catalog-reading';
import type { LibraryHome } from './library-home';
import { whatWorked, whatWorkedPicks, type PickedImage } from './catalog-what-worked';
import {
  whatWorkedQuerySchema,
  type WhatWorkedQuery,
  type WhatWorkedResult,
} from '../../../../src-shared/what-worked';

/**
 * The library's catalog: every image of every batch folder under the root, in SQLite in this
 * studio's data folder (the library folder may be shared with other studios), so the gallery asks for the window it shows, searches and sorts in SQL, and a start
 * reads only the folders that changed. The folders stay the truth (batch.json, review.json):
 * the catalog can be deleted at any time and is made again from them.
 *
 * This class only puts the pieces together and is the one entry point the services use:
 * indexing (catalog-indexing.ts), reading (catalog-reading.ts) and marks (catalog-marks.ts), all
 * through the one open catalog (catalog-connection.ts).
 */
export class LibraryCatalog {
  private readonly catalog: CatalogConnection;
  private readonly indexing: CatalogIndexing;
  private readonly reading: CatalogReading;
  private readonly marks: CatalogMarks;

  /**
   * @param person this studio's person: their own marks are the ones set, undone and filtered as
   *   "mine"; everyone's are read (review-files.ts)
   * @param homeOf this studio's own place for a library folder's index, in its data folder
   *   (library-home.ts); without one, the catalog is kept in memory only
   */
  constructor(
    root: () => string,
    onChange: (change: LibraryChanged) => void = () => undefined,
    person: () => Person = () => ({ id: 'studio', name: '' }),
    homeOf?: (root: string) => LibraryHome,
  ) {
    // A catalog found damaged in use comes back empty: a sync fills it again from the folders.
    this.catalog = new CatalogConnection(
      root,
      (r) => homeOf?.(r).catalogFile ?? ':memory:',
      () => void this.indexing.sync(),
    );
    this.indexing = new CatalogIndexing(
      root,
      this.catalog,
      onChange,
      () => person().id,
      (r, folder) => homeOf?.(r).hashFileOf(folder),
    );
    this.reading = new CatalogReading(this.catalog, this.indexing, person);
    this.marks = new CatalogMarks(this.catalog, this.reading, person);
  }

  sync(): Promise<boolean> {
    return this.indexing.sync();
  }

  /** Reads again only these folders (and the boards) when they changed: another studio named them. */
  recheck(scope: SyncScope): Promise<boolean> {
    return this.indexing.recheck(scope);
  }

  /** The folders still arriving (a copy or a sync under way), looked at again until whole. */
  arriving(): string[] {
    return this.indexing.arriving();
  }

  /** This studio's hashes of these folders changed: they are read again. */
  hashesChanged(folders: string[]): Promise<boolean> {
    return this.indexing.hashesChanged(folders);
  }

  warm(): void {
    this.reading.warm();
  }

  close(): void {
    this.catalog.close();
  }

  query(raw?: LibraryQuery): Promise<LibraryResult> {
    return this.reading.query(raw);
  }

  ids(raw?: LibraryIdsQuery): Promise<string[]> {
    return this.reading.ids(raw);
  }

  position(raw: LibraryPositionQuery): Promise<number | null> {
    return this.reading.position(raw);
  }

  overview(): Promise<LibraryOverview> {
    return this.reading.overview();
  }

  detail(id: string): Promise<LibraryDetail> {
    return this.reading.detail(id);
  }

  lineage(id: string): Promise<{ ancestors: LibraryImage[]; descendants: LibraryImage[] }> {
    return this.reading.lineage(id);
  }

  acrossModels(id: string): Promise<LibraryImage[]> {
    return this.reading.acrossModels(id);
  }

  /** "What worked": the filtered images by their prompts' parts (or model), from the catalog only. */
  async whatWorked(raw: WhatWorkedQuery): Promise<WhatWorkedResult> {
    const query = whatWorkedQuerySchema.parse(raw);
    await this.indexing.settled();
    return this.catalog.use((db) => whatWorked(db, query));
  }

  /** The picked images of each chosen row of "What worked", for a new draft made from them. */
  async whatWorkedPicks(raw: WhatWorkedQuery, chosen: Record<string, string>[]): Promise<PickedImage[][]> {
    const query = whatWorkedQuerySchema.parse(raw);
    await this.indexing.settled();
    return this.catalog.use((db) => whatWorkedPicks(db, query, chosen));
  }

  /** Images without a perceptual hash yet, after a row, for the background hashing. */
  unhashed(after: number, limit: number): { row: number; folder: string; file: string }[] {
    return this.reading.unhashed(after, limit);
  }

  marksOf(ids: string[]): LibraryMarkChange[] {
    return this.marks.marksOf(ids);
  }

  mark(ids: string[], change: Mark): Promise<LibraryMarkChange[]> {
    return this.marks.mark(ids, change);
  }
}
