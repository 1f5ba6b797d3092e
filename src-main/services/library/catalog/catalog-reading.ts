import { join } from 'node:path';
import type {
  LibraryDetail,
  LibraryIdsQuery,
  LibraryImage,
  LibraryOverview,
  LibraryPositionQuery,
  LibraryQuery,
  LibraryResult,
} from '../../../../src-shared/library-view';
import {
  libraryFilterSchema,
  libraryIdsQuerySchema,
  libraryPositionQuerySchema,
  libraryQuerySchema,
} from '../../../../src-shared/library-view';
import { StudioError } from '../../../../src-shared/studio-error';
import type { FolderProblem } from '../folders/batch-folder-record';
import type { StackLevel } from '../../../../src-shared/image-stacks';
import { scalar, type CatalogDb } from './catalog-db';
import type { Person } from './catalog-team';
import { peopleOf, withTeam } from './catalog-team';
import type { CatalogConnection } from './catalog-connection';
import { ID_SQL, rowOf, rowOfColumn } from './catalog-ids';
import type { CatalogIndexing } from './catalog-indexing';
import { COLUMNS, FROM, imageAt, rowsOf, where, windowSql, type Row } from './catalog-list-sql';
import { searchMatches } from './catalog-search';
import { asTerms, MATCHES_TABLE, SearchMatches, termCount } from './catalog-search-matches';
import { newestSearchWindow } from './catalog-search-window';
import { positionOf } from './catalog-position';

export type { Row } from './catalog-list-sql';

const image = imageAt('near');

/** Above this many matches, walking the order's index beats sorting the matches. */
const WALK_INDEX_FROM = 2000;
/** Lists whose length is kept (see `CatalogReading.counts`). */
const MAX_COUNTS = 64;

/**
 * What the gallery reads from the catalog: windows of the filtered, sorted list, its ids, the
 * overview the filters offer, one image's detail, its lineage and its siblings on other models.
 * Each read first lets a short sync under way finish, so it sees a batch just downloaded.
 */
export class CatalogReading {
  private overviewCache?: { revision: number; overview: LibraryOverview };
  /**
   * The length of each list asked for lately, by its condition: every window of a list carries
   * the list's length, and counting a filtered million (a full scan for "one per stack") for each
   * window scrolled to would cost more than the window itself. Valid for one catalog revision and
   * no mark since: marks change what the review and star filters hold.
   */
  private counts = { revision: -1, marks: 0, byCondition: new Map<string, number>() };
  private marksRevision = 0;
  private matches = new SearchMatches();

  constructor(
    private catalog: CatalogConnection,
    private indexing: CatalogIndexing,
    private me: () => Person = () => ({ id: 'studio', name: '' }),
  ) {}

  /** Rows as the studio shows them, with the team's marks where anyone else marked them. */
  private shown(db: CatalogDb, rows: Row[], level?: StackLevel): LibraryImage[] {
    return withTeam(
      db,
      rows.map(imageAt(level)),
      rows.map((r) => r.row),
      this.me().id,
    );
  }

  /**
   * Reads the full-text indexes once, so the first search after a start does not pay for loading
   * them from disk (a few hundred milliseconds at 100,000 images).
   */
  /** Images without a perceptual hash yet, in row order after `after`: the hashing's next round. */
  unhashed(after: number, limit: number): { row: number; folder: string; file: string }[] {
    return this.catalog.use(
      (db) =>
        db
          .prepare(
            `select images.rowid as row, f.name as folder, images.file from images
             join folders f on f.id = images.folder
             where images.phash is null and images.rowid > ? order by images.rowid limit ?`,
          )
          .all(after, limit) as { row: number; folder: string; file: string }[],
    );
  }

  warm(): void {
    this.catalog.use((db) => {
      scalar(db, `select count(*) from images_terms where images_terms match '"a"*'`);
      scalar(db, `select count(*) from images_text where images_text match '"的"'`);
    });
  }

  /** Marks or stars changed: counts of lists filtered by them may be wrong now. */
  marksChanged(): void {
    this.marksRevision++;
  }

  /**
   * The length of a list, from the counts cache when it holds; never cached while a build fills
   * the catalog (the revision only moves at its end, the length with every folder).
   */
  private count(condition: string, params: (string | number)[], work: () => number): number {
    const revision = this.catalog.revision;
    const c = this.counts;
    if (c.revision !== revision || c.marks !== this.marksRevision) {
      this.counts = { revision, marks: this.marksRevision, byCondition: new Map() };
    }
    const key = JSON.stringify([condition, params]);
    const known = this.counts.byCondition.get(key);
    if (known !== undefined && !this.indexing.progress) return known;
    const total = work();
    if (this.indexing.progress) return total;
    // A handful of lists are in use at once; an old one is dropped rather than kept forever.
    if (this.counts.byCondition.size >= MAX_COUNTS) this.counts.byCondition.clear();
    this.counts.byCondition.set(key, total);
    return total;
  }

  /** One window of the filtered, sorted list, and the length of the whole list. */
  async query(raw: LibraryQuery = {}): Promise<LibraryResult> {
    await this.indexing.settled();
    const q = libraryQuerySchema.parse(raw);
    return this.catalog.use((db) => {
      // A search's matches are read once, into a table that counts them (catalog-search-matches.ts).
      const searched = searchMatches(q.search);
      const first = this.firstSearchWindow(db, q, searched);
      if (first) return first;
      const found = searched.length
        ? this.matches.fill(db, this.catalog.revision, searched, !this.indexing.progress)
        : 0;
      const w = where(db, q, searched.length ? MATCHES_TABLE : undefined);
      const { matches } = w;
      // A search alone is counted as its matches are read. The whole library is counted by its
      // folders, as the overview counts it (a folder's images come and go with it): counting a
      // million rows took a new studio's first Library open 100 ms. The words are part of the
      // condition: the table's name alone does not say which search it holds.
      const total = this.count(`${JSON.stringify(matches)} ${w.sql}`, w.params, () =>
        w.searchOnly
          ? found
          : w.sql
            ? scalar(db, `select count(*) from images ${w.sql}`, ...w.params)
            : scalar(db, 'select coalesce(sum(images), 0) from folders'),
      );
      // A window past the middle is read from the end, the list's order reversed: SQLite steps over
      // the rows before a window one by one, so the oldest images (a million rows down) come as
      // quickly as the newest.
      const end = Math.min(q.offset + q.limit, total);
      const reversed = q.offset > total / 2;
      const [limit, offset] = reversed ? [Math.max(0, end - q.offset), total - end] : [q.limit, q.offset];
      const walk = matches.length > 0 && total > WALK_INDEX_FROM;
      const { sql, params } = windowSql(q.sort, w, { column: 'images.rowid', walk, reversed });
      const window = db
        .prepare(sql)
        .pluck()
        .all(...params, limit, offset) as number[];
      const rows = rowsOf(db, reversed ? window.reverse() : window);
      return { total, offset: q.offset, items: this.shown(db, rows, q.stackLevel) };
    });
  }

  /**
   * The first window of a search alone, newest first (what typing in the search box asks), from
   * the word's newest matches only (catalog-search-window.ts), and its count from the full-text
   * index; undefined when that does not apply or cannot be sure.
   */
  private firstSearchWindow(
    db: CatalogDb,
    q: ReturnType<typeof libraryQuerySchema.parse>,
    searched: ReturnType<typeof searchMatches>,
  ): LibraryResult | undefined {
    if (q.sort !== 'newest' || q.offset !== 0 || !searched.length) return undefined;
    const w = where(db, q);
    if (!w.searchOnly) return undefined;
    const terms = searched.map((m) => asTerms(db, m));
    const window = newestSearchWindow(db, terms, q.limit);
    if (!window) return undefined;
    const total = this.count(
      `${JSON.stringify(searched)} ${w.sql}`,
      w.params,
      () =>
        (terms.length === 1 ? termCount(db, terms[0]!) : undefined) ??
        scalar(
          db,
          `select count(*) from (${terms.map((m) => m.sql).join(' intersect ')})`,
          ...terms.map((m) => m.param),
        ),
    );
    return { total, offset: 0, items: this.shown(db, rowsOf(db, window), q.stackLevel) };
  }

  /** Where an image is in the filtered, sorted list, or null where the list does not hold it. */
  async position(raw: LibraryPositionQuery): Promise<number | null> {
    await this.indexing.settled();
    const { id, ...filter } = libraryPositionQuerySchema.parse(raw);
    return this.catalog.use((db) => positionOf(db, libraryFilterSchema.parse(filter), id));
  }

  /** Ids of the filtered list in its order, or of a range of it. */
  async ids(raw: LibraryIdsQuery = {}): Promise<string[]> {
    await this.indexing.settled();
    const q = libraryIdsQuerySchema.parse(raw);
    const limit = q.end === undefined ? -1 : Math.max(0, q.end - q.start);
    return this.catalog.use((db) => {
      const w = where(db, q);
      const { sql, params } = windowSql(q.sort, w, { column: ID_SQL, walk: false, reversed: false });
      return db
        .prepare(sql)
        .pluck()
        .all(...params, limit, q.start) as string[];
    });
  }

  /**
   * Batches, models, problems and the image count. Opening the Library asks for it, so it checks
   * every folder first: what the gallery shows then is what is on disk.
   */
  async overview(): Promise<LibraryOverview> {
    await this.indexing.synced();
    const cached = this.overviewCache;
    if (cached && cached.revision === this.catalog.revision && !this.indexing.progress)
      return cached.overview;
    const overview = this.catalog.use((db) => ({
      root: this.catalog.openRoot,
      images: scalar(db, 'select coalesce(sum(images), 0) from folders'),
      indexing: this.indexing.progress,
      batches: (
        db
          .prepare(
            `select batch_id, max(task_name), sum(images) from folders where images > 0
             group by batch_id order by max(created_at) desc, batch_id`,
          )
          .raw()
          .all() as [string, string, number][]
      ).map(([id, taskName, images]) => ({ id, taskName, images })),
      people: peopleOf(db, this.me()),
      models: db
        .prepare(`select distinct model from folders where images > 0 and model <> '' order by model`)
        .pluck()
        .all() as string[],
      collections: (
        db
          .prepare(
            `select c.id, c.name, count(${rowOfColumn('i.image_id')}) from collections c
             left join collection_items i on i.collection_id = c.id
             group by c.id order by c.created_at, c.name`,
          )
          .raw()
          .all() as [string, string, number][]
      ).map(([id, name, images]) => ({ id, name, images })),
      problems: (
        db.prepare('select name, problem from folders where problem is not null').raw().all() as [
          string,
          string,
        ][]
      ).map(([folder, problem]) => ({ folder, ...(JSON.parse(problem) as FolderProblem) })),
    }));
    if (!this.indexing.progress) this.overviewCache = { revision: this.catalog.revision, overview };
    return overview;
  }

  /**
   * What an image was made from, and what was made from it, generations deep: images used as its
   * references (or realtime inputs), their own sources, and so on; and the images whose batches or
   * realtime jobs used it. Images no longer in the library are left out.
   */
  async lineage(id: string): Promise<{ ancestors: LibraryImage[]; descendants: LibraryImage[] }> {
    await this.indexing.settled();
    const walk = (from: string, to: string) =>
      this.catalog
        .use(
          (db) =>
            db
              .prepare(
                `with recursive chain(id, depth) as (
                 select ${to}, 1 from image_sources where ${from} = ?
                 union select s.${to}, chain.depth + 1 from image_sources s
                   join chain on s.${from} = chain.id where chain.depth < 50
               )
               select ${COLUMNS} from (select ${rowOfColumn('chain.id')} as chain_row, min(depth) as depth
                 from chain group by id) c join images on images.rowid = c.chain_row
                 join folders f on f.id = images.folder order by c.depth, images.created_at desc`,
              )
              .all(id) as Row[],
        )
        .map(image);
    return { ancestors: walk('image_id', 'source_id'), descendants: walk('source_id', 'image_id') };
  }

  /**
   * The same row of a run on every model it was sent to, this image included, by model: what
   * "Compare across models" shows. An image outside a run is alone.
   */
  async acrossModels(id: string): Promise<LibraryImage[]> {
    await this.indexing.settled();
    const self = this.row(id);
    // A run's folders (one a model), and in each the same row: a few hundred images walked.
    const rows = self?.run_id
      ? this.catalog.use(
          (db) =>
            db
              .prepare(
                `select ${COLUMNS} from ${FROM}
                 where images.folder in (select id from folders where run_id = ?) and images.custom_id = ?
                 order by f.model, images.folder, images.rowid`,
              )
              .all(self.run_id, self.custom_id) as Row[],
        )
      : [];
    const shown = rows.length ? rows : [self ?? (await this.entry(id))];
    return this.catalog.use((db) => this.shown(db, shown));
  }

  private row(id: string): Row | undefined {
    return this.catalog.use((db) => {
      const row = rowOf(db, id);
      return row === undefined ? undefined : rowsOf(db, [row])[0];
    });
  }

  /** One image by id; an id the catalog does not know yet gets one sync before it is refused. */
  async entry(id: string): Promise<Row> {
    let row = this.row(id);
    if (!row) {
      await this.indexing.sync();
      row = this.row(id);
    }
    if (!row)
      throw new StudioError({
        code: 'STUDIO_IMAGE_NOT_FOUND',
        message: 'That image is no longer in the library.',
      });
    return row;
  }

  async detail(id: string): Promise<LibraryDetail> {
    const r = await this.entry(id);
    return {
      ...this.catalog.use((db) => this.shown(db, [r]))[0]!,
      folder: r.folder,
      file: r.file,
      rowIndex: r.row_index,
      path: join(this.catalog.openRoot, r.folder, r.file),
      parameters: {
        model: r.model,
        batch_id: r.batch_id,
        task_name: r.task_name,
        custom_id: r.custom_id,
        created_at: new Date(r.created_at * 1000).toISOString(),
      },
    };
  }
}
