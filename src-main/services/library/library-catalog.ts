import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  LibraryChanged,
  LibraryDetail,
  LibraryIdsQuery,
  LibraryImage,
  LibraryMarkChange,
  LibraryOverview,
  LibraryQuery,
  LibraryResult,
  ReviewMark,
} from '../../../src-shared/library-view';
import {
  libraryFilterSchema,
  libraryIdsQuerySchema,
  libraryQuerySchema,
} from '../../../src-shared/library-view';
import { StudioError } from '../../../src-shared/studio-error';
import { logCaught, logCaughtUnlessMissing } from '../log/studio-log';
import { writeJsonAtomic } from './atomic-file';
import {
  fileSignature,
  folderSignature,
  readBatchFolder,
  readReview,
  REVIEW_FILE,
  REVIEW_FORMAT,
  type FolderImage,
  type FolderProblem,
  type Review,
} from './batch-folder-record';
import { STAGING_DIR } from './batch-folder';
import { Collections, COLLECTIONS_FILE } from './collections';
import { isCorrupt, openCatalog, reopenCatalog, scalar, type CatalogDb } from './catalog-db';
import { cjkText, searchMatches, wordTerms } from './catalog-search';

type Mark = { mark?: ReviewMark; stars?: number };
type Filter = ReturnType<typeof libraryFilterSchema.parse>;

/** Up to this many folders to read, a query waits for them; more, and it answers what is known while the catalog fills. */
const WAIT_FOR_FOLDERS = 50;

const ORDER: Record<Filter['sort'], string> = {
  newest: 'created_at desc, folder desc, ord',
  oldest: 'created_at, folder, ord',
  stars: 'stars desc, created_at desc, folder desc, ord',
  prompt: 'prompt collate nocase, folder, ord',
};

const COLUMNS =
  'id, batch_id, task_name, model, custom_id, prompt, created_at, mime, bytes, mark, stars, folder, file, row_index';

interface Row {
  id: string;
  batch_id: string;
  task_name: string;
  model: string;
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
}

const image = (r: Row): LibraryImage => ({
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
});

/** The filters as one SQL condition; the search words go through the two full-text indexes. */
function where(f: Filter): {
  sql: string;
  params: (string | number)[];
  matches: ReturnType<typeof searchMatches>;
  searchOnly: boolean;
} {
  const matches = searchMatches(f.search);
  const sql = matches.map((m) => `images.rowid in (${m.sql})`);
  const params: (string | number)[] = matches.map((m) => m.param);
  const add = (condition: string, ...values: (string | number)[]) => {
    sql.push(condition);
    params.push(...values);
  };
  if (f.batchId) add('batch_id = ?', f.batchId);
  if (f.collectionId)
    add('id in (select image_id from collection_items where collection_id = ?)', f.collectionId);
  if (f.model) add('model = ?', f.model);
  if (f.from !== undefined) add('created_at >= ?', f.from);
  if (f.to !== undefined) add('created_at < ?', f.to);
  if (f.review === 'unrated') add('mark is null and stars = 0');
  else if (f.review !== 'any') add('mark = ?', f.review);
  if (f.minStars > 0) add('stars >= ?', f.minStars);
  return {
    sql: sql.length ? `where ${sql.join(' and ')}` : '',
    params,
    matches,
    searchOnly: matches.length > 0 && sql.length === matches.length,
  };
}

/** The index each order walks; a search with many matches walks it instead of sorting them all. */
const ORDER_INDEX: Record<Filter['sort'], string> = {
  newest: 'images_newest',
  oldest: 'images_oldest',
  stars: 'images_stars',
  prompt: 'images_prompt',
};
/** Above this many matches, walking the order's index beats sorting the matches. */
const WALK_INDEX_FROM = 2000;

interface SyncPlan {
  root: string;
  changed: string[];
  gone: string[];
  /** collections.json's time and size, when it differs from what the catalog last read. */
  collections?: string;
}

/**
 * The library's catalog: every image of every batch folder under the root, in SQLite beside the
 * library, so the gallery asks for the window it shows, searches and sorts in SQL, and a start
 * reads only the folders that changed. The folders stay the truth (batch.json, review.json):
 * the catalog can be deleted at any time and is made again from them.
 */
export class LibraryCatalog {
  private db?: CatalogDb;
  private openRoot = '';
  private running?: Promise<boolean>;
  private queued?: Promise<boolean>;
  /** How many folders the sync under way reads: queries wait for a short sync only. */
  private planned: Promise<number> = Promise.resolve(0);
  private indexing: { done: number; total: number; imagesAbout?: number } | null = null;
  private overviewCache?: LibraryOverview;
  private marking: Promise<unknown> = Promise.resolve();

  constructor(
    private root: () => string,
    private onChange: (change: LibraryChanged) => void = () => undefined,
  ) {}

  /** The open catalog of the current library folder; a new folder in Settings opens its own. */
  private database(): CatalogDb {
    const root = this.root();
    if (this.db && root === this.openRoot) return this.db;
    this.db?.close();
    this.db = openCatalog(root).db;
    this.openRoot = root;
    this.overviewCache = undefined;
    return this.db;
  }

  /**
   * Runs a read or write on the catalog. A catalog found damaged in use is deleted, made again
   * from the folders, and the work tried once more on the new one.
   */
  private use<T>(work: (db: CatalogDb) => T): T {
    const db = this.database();
    try {
      return work(db);
    } catch (err) {
      if (!isCorrupt(err)) throw err;
      logCaught('library catalog damaged in use: rebuilding', err);
      this.db = reopenCatalog(db, this.openRoot).db;
      this.overviewCache = undefined;
      void this.sync();
      return work(this.db);
    }
  }

  /**
   * Reads the full-text indexes once, so the first search after a start does not pay for loading
   * them from disk (a few hundred milliseconds at 100,000 images).
   */
  warm(): void {
    this.use((db) => {
      scalar(db, `select count(*) from images_terms where images_terms match '"a"*'`);
      scalar(db, `select count(*) from images_text where images_text match '"的"'`);
    });
  }

  close(): void {
    this.db?.close();
    this.db = undefined;
  }

  /**
   * Brings the catalog up to date with the folders: three stats a folder, and only changed
   * folders are read. Calls made while one runs share the next run, so a burst of changes
   * costs two runs at most. Answers whether anything changed.
   */
  sync(): Promise<boolean> {
    if (!this.running) {
      const plan = this.plan();
      this.planned = plan.then(
        (p) => p.changed.length,
        () => 0,
      );
      this.running = plan.then((p) => this.apply(p)).finally(() => (this.running = undefined));
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => false)
      .then(() => {
        this.queued = undefined;
        return this.sync();
      });
    return this.queued;
  }

  /**
   * Waits for the sync under way when it is short, so a query right after a download sees the
   * batch. A long one (the first build of a big library) is not waited for: the gallery shows
   * what is known, with the catalog's progress, and fills in as folders are read.
   */
  private async settled(): Promise<void> {
    const first = !this.db || this.root() !== this.openRoot;
    const run = first ? this.sync() : this.running;
    if (run && (await this.planned) <= WAIT_FOR_FOLDERS) await run;
  }

  private async plan(): Promise<SyncPlan> {
    const root = this.root();
    let names: string[];
    try {
      names = readdirSync(root, { withFileTypes: true })
        .filter((d) => d.isDirectory() && !d.name.startsWith('.') && d.name !== STAGING_DIR)
        .map((d) => d.name);
    } catch (err) {
      logCaughtUnlessMissing('library folder listing', err);
      names = [];
    }
    const known = new Map(
      this.use((db) => db.prepare('select name, signature from folders').raw().all() as [string, string][]),
    );
    const signatures = await Promise.all(names.map((name) => folderSignature(join(root, name))));
    const present = new Set(names);
    const collections = await fileSignature(join(root, COLLECTIONS_FILE));
    const readCollections = this.use(
      (db) =>
        db.prepare(`select value from meta where key = 'collections'`).pluck().all()[0] as string | undefined,
    );
    return {
      root,
      changed: names.filter((name, i) => known.get(name) !== signatures[i]),
      gone: [...known.keys()].filter((name) => !present.has(name)),
      collections: collections === readCollections ? undefined : collections,
    };
  }

  private async apply({ root, changed, gone, collections }: SyncPlan): Promise<boolean> {
    if (collections !== undefined) await this.readCollections(root, collections);
    if (!changed.length && !gone.length) return collections !== undefined;
    if (gone.length)
      this.use((db) => db.transaction(() => gone.forEach((name) => this.removeFolder(db, name)))());
    const loud = changed.length > WAIT_FOR_FOLDERS;
    let imagesThisPass = 0;
    for (let i = 0; i < changed.length; i++) {
      if (this.root() !== root) return true;
      const name = changed[i]!;
      const signature = await folderSignature(join(root, name));
      const record = await readBatchFolder(join(root, name));
      this.use((db) =>
        db.transaction(() => this.writeFolder(db, name, signature, record.images, record.problem))(),
      );
      imagesThisPass += record.images.length;
      if (loud && (i % 10 === 9 || i === changed.length - 1)) {
        const indexed = this.use((db) => scalar(db, 'select coalesce(sum(images), 0) from folders'));
        const about = Math.round(indexed + ((changed.length - i - 1) * imagesThisPass) / (i + 1));
        this.indexing =
          i === changed.length - 1 ? null : { done: i + 1, total: changed.length, imagesAbout: about };
        this.onChange({ reason: 'indexing', indexing: this.indexing });
      }
      // Other calls (the poller, marks, the gallery's windows) run between folders.
      await nextTurn();
    }
    // After many folders the indexes are in many pieces; merged, searches read one piece each.
    if (loud)
      this.use((db) =>
        db.exec(
          `insert into images_terms (images_terms) values ('optimize');
           insert into images_text (images_text) values ('optimize');`,
        ),
      );
    this.overviewCache = undefined;
    this.onChange({ reason: 'folders' });
    return true;
  }

  /** Puts collections.json into the catalog's tables, whole: it is small next to the images. */
  private async readCollections(root: string, signature: string): Promise<void> {
    const list = await new Collections(() => root).read();
    this.use((db) =>
      db.transaction(() => {
        db.exec('delete from collections; delete from collection_items;');
        const collection = db.prepare('insert into collections (id, name, created_at) values (?, ?, ?)');
        const item = db.prepare(
          'insert or ignore into collection_items (collection_id, image_id) values (?, ?)',
        );
        for (const c of list) {
          collection.run(c.id, c.name, c.createdAt);
          for (const image of c.images) item.run(c.id, image);
        }
        db.prepare(`insert or replace into meta (key, value) values ('collections', ?)`).run(signature);
      })(),
    );
    this.overviewCache = undefined;
    this.onChange({ reason: 'collections' });
  }

  private removeFolder(db: CatalogDb, name: string): void {
    const rowids = db.prepare('select rowid from images where folder = ?').pluck().all(name) as number[];
    const dropText = db.prepare('delete from images_text where rowid = ?');
    const dropTerms = db.prepare('delete from images_terms where rowid = ?');
    for (const rowid of rowids) {
      dropText.run(rowid);
      dropTerms.run(rowid);
    }
    db.prepare('delete from image_sources where image_id in (select id from images where folder = ?)').run(
      name,
    );
    db.prepare('delete from images where folder = ?').run(name);
    db.prepare('delete from folders where name = ?').run(name);
  }

  private writeFolder(
    db: CatalogDb,
    name: string,
    signature: string,
    images: FolderImage[],
    problem: FolderProblem | undefined,
  ): void {
    this.removeFolder(db, name);
    const first = images[0];
    db.prepare(
      `insert into folders (name, signature, problem, batch_id, task_name, model, created_at, images)
       values (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      name,
      signature,
      problem ? JSON.stringify(problem) : null,
      first?.batchId ?? null,
      first?.taskName ?? null,
      first?.model ?? null,
      first?.createdAt ?? null,
      images.length,
    );
    const insert = db.prepare(
      `insert into images (id, folder, file, ord, batch_id, task_name, model, custom_id, prompt, row_index,
       created_at, mime, bytes, mark, stars, run_id) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const text = db.prepare('insert into images_text (rowid, text) values (?, ?)');
    const terms = db.prepare('insert into images_terms (rowid, terms) values (?, ?)');
    const source = db.prepare('insert into image_sources (image_id, source_id) values (?, ?)');
    for (const i of images) {
      const { lastInsertRowid } = insert.run(
        `${name}/${i.file}`,
        name,
        i.file,
        i.ord,
        i.batchId,
        i.taskName,
        i.model,
        i.customId,
        i.prompt,
        i.rowIndex,
        i.createdAt,
        i.mime,
        i.bytes,
        i.mark,
        i.stars,
        i.runId,
      );
      const chinese = cjkText(i);
      if (chinese) text.run(lastInsertRowid, chinese);
      terms.run(lastInsertRowid, wordTerms(i));
      for (const from of i.sources) source.run(`${name}/${i.file}`, from);
    }
  }

  /** One window of the filtered, sorted list, and the length of the whole list. */
  async query(raw: LibraryQuery = {}): Promise<LibraryResult> {
    await this.settled();
    const q = libraryQuerySchema.parse(raw);
    const w = where(q);
    const { matches } = w;
    return this.use((db) => {
      // A search alone is counted in the full-text indexes, without visiting the images.
      const total = w.searchOnly
        ? scalar(
            db,
            `select count(*) from (${matches.map((m) => m.sql).join(' intersect ')})`,
            ...matches.map((m) => m.param),
          )
        : scalar(db, `select count(*) from images ${w.sql}`, ...w.params);
      const walk = matches.length && total > WALK_INDEX_FROM ? `indexed by ${ORDER_INDEX[q.sort]}` : '';
      const rows = db
        .prepare(`select ${COLUMNS} from images ${walk} ${w.sql} order by ${ORDER[q.sort]} limit ? offset ?`)
        .all(...w.params, q.limit, q.offset) as Row[];
      return { total, offset: q.offset, items: rows.map(image) };
    });
  }

  /** Ids of the filtered list in its order, or of a range of it. */
  async ids(raw: LibraryIdsQuery = {}): Promise<string[]> {
    await this.settled();
    const q = libraryIdsQuerySchema.parse(raw);
    const w = where(q);
    const limit = q.end === undefined ? -1 : Math.max(0, q.end - q.start);
    return this.use(
      (db) =>
        db
          .prepare(`select id from images ${w.sql} order by ${ORDER[q.sort]} limit ? offset ?`)
          .pluck()
          .all(...w.params, limit, q.start) as string[],
    );
  }

  /**
   * Batches, models, problems and the image count. Opening the Library asks for it, so it checks
   * every folder first: what the gallery shows then is what is on disk.
   */
  async overview(): Promise<LibraryOverview> {
    const sync = this.sync();
    if ((await this.planned) <= WAIT_FOR_FOLDERS) await sync;
    if (this.overviewCache && !this.indexing) return this.overviewCache;
    const overview = this.use((db) => ({
      root: this.openRoot,
      images: scalar(db, 'select coalesce(sum(images), 0) from folders'),
      indexing: this.indexing,
      batches: (
        db
          .prepare(
            `select batch_id, max(task_name), sum(images) from folders where images > 0
             group by batch_id order by max(created_at) desc, batch_id`,
          )
          .raw()
          .all() as [string, string, number][]
      ).map(([id, taskName, images]) => ({ id, taskName, images })),
      models: db
        .prepare(`select distinct model from folders where images > 0 and model <> '' order by model`)
        .pluck()
        .all() as string[],
      collections: (
        db
          .prepare(
            `select c.id, c.name, count(images.id) from collections c
             left join collection_items i on i.collection_id = c.id
             left join images on images.id = i.image_id
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
    if (!this.indexing) this.overviewCache = overview;
    return overview;
  }

  /**
   * What an image was made from, and what was made from it, generations deep: images used as its
   * references (or realtime inputs), their own sources, and so on; and the images whose batches or
   * realtime jobs used it. Images no longer in the library are left out.
   */
  async lineage(id: string): Promise<{ ancestors: LibraryImage[]; descendants: LibraryImage[] }> {
    await this.settled();
    const walk = (from: string, to: string) =>
      this.use(
        (db) =>
          db
            .prepare(
              `with recursive chain(id, depth) as (
                 select ${to}, 1 from image_sources where ${from} = ?
                 union select s.${to}, chain.depth + 1 from image_sources s
                   join chain on s.${from} = chain.id where chain.depth < 50
               )
               select ${COLUMNS} from images join (select id as chain_id, min(depth) as depth from chain group by id)
                 on images.id = chain_id order by depth, created_at desc`,
            )
            .all(id) as Row[],
      ).map(image);
    return { ancestors: walk('image_id', 'source_id'), descendants: walk('source_id', 'image_id') };
  }

  /**
   * The same row of a run on every model it was sent to, this image included, by model: what
   * "Compare across models" shows. An image outside a run is alone.
   */
  async acrossModels(id: string): Promise<LibraryImage[]> {
    await this.settled();
    const rows = this.use(
      (db) =>
        db
          .prepare(
            `select ${COLUMNS} from images where run_id = (select run_id from images where id = ?)
             and custom_id = (select custom_id from images where id = ?) order by model, folder, ord`,
          )
          .all(id, id) as Row[],
    );
    return rows.length ? rows.map(image) : [image(await this.entry(id))];
  }

  private row(id: string): Row | undefined {
    return this.use(
      (db) => db.prepare(`select ${COLUMNS} from images where id = ?`).get(id) as Row | undefined,
    );
  }

  /** One image by id; an id the catalog does not know yet gets one sync before it is refused. */
  async entry(id: string): Promise<Row> {
    let row = this.row(id);
    if (!row) {
      await this.sync();
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
      ...image(r),
      folder: r.folder,
      file: r.file,
      rowIndex: r.row_index,
      path: join(this.openRoot, r.folder, r.file),
      parameters: {
        model: r.model,
        batch_id: r.batch_id,
        task_name: r.task_name,
        custom_id: r.custom_id,
        created_at: new Date(r.created_at * 1000).toISOString(),
      },
    };
  }

  /**
   * Sets marks or stars on many images: each batch folder's review.json is rewritten atomically
   * and durably, then the same rows of the catalog are changed in place. No folder is read again.
   * Calls run one after another, so quick keystrokes never lose each other's writes.
   */
  /** The marks of these images as the catalog has them: what an undo puts back. Unknown ids are left out. */
  marksOf(ids: string[]): LibraryMarkChange[] {
    const out: LibraryMarkChange[] = [];
    this.use((db) => {
      const read = db.prepare('select id, mark, stars from images where id = ?');
      for (const id of new Set(ids)) {
        const row = read.get(id) as { id: string; mark: ReviewMark; stars: number } | undefined;
        if (row) out.push({ id: row.id, mark: row.mark, stars: row.stars });
      }
    });
    return out;
  }

  mark(ids: string[], change: Mark): Promise<LibraryMarkChange[]> {
    const run = this.marking.then(() => this.applyMarks(ids, change));
    this.marking = run.catch(() => undefined);
    return run;
  }

  private async applyMarks(ids: string[], change: Mark): Promise<LibraryMarkChange[]> {
    const byFolder = new Map<string, Row[]>();
    for (const id of new Set(ids)) {
      const r = await this.entry(id);
      byFolder.set(r.folder, [...(byFolder.get(r.folder) ?? []), r]);
    }
    const changes: LibraryMarkChange[] = [];
    for (const [folder, rows] of byFolder) {
      const dir = join(this.openRoot, folder);
      let review: Review = {};
      try {
        review = await readReview(join(dir, REVIEW_FILE));
      } catch (err) {
        logCaughtUnlessMissing('review.json read', err);
      }
      for (const r of rows) {
        const current = review[r.file] ?? { mark: null, stars: 0 };
        review[r.file] = {
          mark: change.mark !== undefined ? change.mark : current.mark,
          stars: change.stars ?? current.stars,
        };
        changes.push({ id: r.id, ...review[r.file]! });
      }
      await writeJsonAtomic(join(dir, REVIEW_FILE), { format: REVIEW_FORMAT, images: review });
      const signature = await folderSignature(dir);
      this.use((db) =>
        db.transaction(() => {
          const update = db.prepare('update images set mark = ?, stars = ? where id = ?');
          for (const r of rows) update.run(review[r.file]!.mark, review[r.file]!.stars, r.id);
          // The folder's new review.json is the catalog's own doing: the next start need not read it.
          // A damaged review.json it replaced is no longer a problem of the folder.
          db.prepare(
            `update folders set signature = ?,
             problem = case when problem like '%"REVIEW_DAMAGED"%' then null else problem end where name = ?`,
          ).run(signature, folder);
        })(),
      );
    }
    return changes;
  }
}
