import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { LibraryChanged, LibraryOverview } from '../../../../src-shared/library-view';
import { logCaught, logCaughtUnlessMissing } from '../../log/studio-log';
import { folderSignature, folderSignatureNow, readBatchFolder } from '../folders/batch-folder-record';
import { Collections } from '../folders/boards';
import { isCorrupt, type CatalogDb } from './catalog-db';
import type { CatalogConnection } from './catalog-connection';
import { removeFolder, restack, writeFolder } from './catalog-folder-rows';
import { arrivingSignature, stillCurrent } from '../folders/folder-arriving';
import { batchFileStamp, ImagesEstimate } from './indexing-estimate';
import { isSyncTemporary, syncConflictOf } from '../folders/sync-conflicts';

/** Up to this many folders to read, a query waits for them; more, and it answers what is known while the catalog fills. */
const WAIT_FOR_FOLDERS = 50;
/** Folders checked between turns of the event loop when looking for changes. */
const SIGNATURE_SLICE = 500;

/** A folder as the catalog has it: its name, its signature when read, and its images. */
type KnownFolder = [name: string, signature: string, images: number];

interface SyncPlan {
  root: string;
  /** Folders to read, newest first (by batch.json's time), with the signature the plan saw. */
  changed: { name: string; signature: string }[];
  /** A long sync's estimate of the library's images, reported from the moment the plan is known. */
  estimate?: ImagesEstimate;
  gone: string[];
  /** collections.json's time and size, when it differs from what the catalog last read. */
  collections?: string;
}

/**
 * What a sync looks at: every folder (undefined), or only these folders (named in another
 * studio's change journal, or still arriving) and, when `boards`, the boards. `named` and
 * `boardsNamed`: what another studio's journal has just named, read whatever its signature says.
 */
export type SyncScope = { folders: string[]; boards: boolean; named?: string[]; boardsNamed?: boolean };

/** Folder names a sync looks at: not the studio's own (dot) folders, nor a sync tool's leftovers. */
function isBatchFolderName(name: string): boolean {
  return (
    !name.startsWith('.') &&
    !name.includes('/') &&
    !name.includes('\\') &&
    !isSyncTemporary(name) &&
    !syncConflictOf(name)
  );
}

/** A folder of the library as it is on disk now, by name; false when gone or not a folder. */
function isFolder(dir: string): boolean {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/**
 * Keeps the catalog in step with the batch folders and collections.json: which folders changed
 * (three stats a folder), reading only those into the catalog, and the first build's progress.
 * Tells the window through `onChange`: `indexing` while a long sync runs, then `folders`, and
 * `collections` when collections.json was read.
 */
export class CatalogIndexing {
  private running?: Promise<boolean>;
  private queued?: Promise<boolean>;
  /** What the queued run looks at: every folder, or the folders (and boards) asked for meanwhile. */
  private next?: 'all' | SyncScope;
  private arrivingNames?: { revision: number; names: string[] };
  /**
   * Folders another studio named since the last plan: read by the next sync whatever their
   * signature. A folder's times move in clock ticks of a few milliseconds, so this studio's write
   * and another's in one tick leave the signature this studio saw after its own write.
   */
  private named = new Set<string>();
  /** The boards, named since the last plan: read by the next sync whatever their files' times. */
  private boardsNamed = false;
  /** How many folders the sync under way reads: queries wait for a short sync only. */
  private planned: Promise<number> = Promise.resolve(0);
  /** Whether the sync under way is still looking at the folders (planning), not yet reading them. */
  private looking = false;
  /** The sync `synced` began only to look at every folder, which queries do not wait for. */
  private look?: Promise<boolean>;
  private indexing: { done: number; total: number; imagesAbout?: number } | null = null;

  constructor(
    private root: () => string,
    private catalog: CatalogConnection,
    private onChange: (change: LibraryChanged) => void,
    private me: () => string = () => '',
    /** Where this studio keeps its hashes of a folder of the library at `root` (its data folder). */
    private hashFileOf: (root: string, folderName: string) => string | undefined = () => undefined,
  ) {}

  /**
   * This studio made hashes of these folders (kept in its data folder, so no signature of the
   * folder shows it): they are read again.
   */
  hashesChanged(folders: string[]): Promise<boolean> {
    this.catalog.use((db) => {
      const stale = db.prepare(`update folders set signature = '' where name = ?`);
      db.transaction(() => folders.forEach((name) => stale.run(name)))();
    });
    return this.sync();
  }

  /** The long sync under way (the first build of a big library), or null. */
  get progress(): LibraryOverview['indexing'] {
    return this.indexing;
  }

  /**
   * Brings the catalog up to date with the folders: three stats a folder, and only changed
   * folders are read. Calls made while one runs share the next run, so a burst of changes
   * costs two runs at most. Answers whether anything changed.
   */
  sync(): Promise<boolean> {
    return this.run(undefined);
  }

  /**
   * Brings only these folders (and the boards) up to date: another studio named them in its
   * change journal, or they are still arriving. A few stats a folder; folders that changed are
   * read, folders gone are taken out. Answers whether anything changed.
   */
  recheck(scope: SyncScope): Promise<boolean> {
    for (const name of scope.named ?? []) if (isBatchFolderName(name)) this.named.add(name);
    if (scope.boardsNamed) this.boardsNamed = true;
    return this.run({ folders: scope.folders.filter(isBatchFolderName), boards: scope.boards });
  }

  /** The folders the catalog keeps as still arriving: looked at again until they are whole. */
  arriving(): string[] {
    // Asked at every poll: worked out again only when the catalog changed (a scan of every folder).
    if (this.arrivingNames?.revision === this.catalog.revision) return this.arrivingNames.names;
    const names = this.catalog.use(
      (db) =>
        db.prepare(`select name from folders where signature like 'arriving:%'`).pluck().all() as string[],
    );
    this.arrivingNames = { revision: this.catalog.revision, names };
    return names;
  }

  private run(scope: SyncScope | undefined): Promise<boolean> {
    if (!this.running) {
      this.looking = !scope;
      const plan = this.plan(scope).finally(() => (this.looking = false));
      this.planned = plan.then(
        (p) => p.changed.length,
        () => 0,
      );
      // A build that stopped (another library folder, a failure) no longer shows its progress.
      this.running = plan
        .then((p) => this.apply(p))
        .finally(() => {
          if (this.indexing) this.report(null);
          this.running = undefined;
        });
      return this.running;
    }
    // Calls made meanwhile share one next run, looking at all they asked for together.
    this.next = !scope || this.next === 'all' ? 'all' : widen(this.next, scope);
    this.queued ??= this.running
      .catch(() => false)
      .then(() => {
        const next = this.next;
        this.queued = undefined;
        this.next = undefined;
        return this.run(next === 'all' ? undefined : next);
      });
    return this.queued;
  }

  /**
   * Waits for the sync under way when it is short, so a query right after a download sees the
   * batch. A long one (the first build of a big library) is not waited for: the gallery shows
   * what is known, with the catalog's progress, and fills in as folders are read.
   */
  async settled(): Promise<void> {
    const first = !this.catalog.current;
    const run = first ? this.sync() : this.running;
    // A look that no change asked for (the Library's overview checking every folder) is not
    // waited for: what it finds is announced, and the lists are asked again then.
    if (run && run !== this.look && (await this.planned) <= WAIT_FOR_FOLDERS) await run;
  }

  /**
   * Checks every folder, and waits for the sync when it is short, as `settled` does. A sync still
   * looking at the folders (the start's, when the Library opens with the studio) is as fresh as a
   * new one: it is joined, not followed by a second look at every folder.
   */
  async synced(): Promise<void> {
    const joined = this.looking && this.running;
    const sync = joined ? this.running! : this.sync();
    if (!joined && sync === this.running) this.look = sync;
    if ((await this.planned) <= WAIT_FOR_FOLDERS) await sync;
  }

  private async plan(scope?: SyncScope): Promise<SyncPlan> {
    const root = this.root();
    // Taken before anything is read: a folder named from now on is read by the next sync.
    const named = this.named;
    const boardsNamed = this.boardsNamed;
    this.named = new Set();
    this.boardsNamed = false;
    let names: string[];
    if (scope) names = scope.folders.filter((name) => isFolder(join(root, name)));
    else
      try {
        names = readdirSync(root, { withFileTypes: true })
          .filter((d) => d.isDirectory() && isBatchFolderName(d.name))
          .map((d) => d.name);
      } catch (err) {
        logCaughtUnlessMissing('library folder listing', err);
        names = [];
      }
    // Own marks are this person's (catalog-db.ts): another person (a new id for a copied data
    // folder) reads every folder again.
    const me = this.me();
    this.catalog.use((db) => {
      const was = db.prepare(`select value from meta where key = 'person'`).pluck().all()[0];
      if (was === me) return;
      db.transaction(() => {
        if (was !== undefined) db.exec(`update folders set signature = ''`);
        db.prepare(`insert or replace into meta (key, value) values ('person', ?)`).run(me);
      })();
    });
    // What the catalog has of each folder, read once: both what changed and the estimate go by it.
    const known = new Map(
      this.catalog
        .use((db) => {
          if (!scope)
            return db.prepare('select name, signature, images from folders').raw().all() as KnownFolder[];
          const one = db.prepare('select name, signature, images from folders where name = ?').raw();
          return scope.folders.map((name) => one.get(name) as KnownFolder | undefined).filter((f) => !!f);
        })
        .map(([name, signature, images]) => [name, { signature, images }]),
    );
    const signatures: string[] = [];
    for (let at = 0; at < names.length; at += SIGNATURE_SLICE) {
      for (const name of names.slice(at, at + SIGNATURE_SLICE))
        signatures.push(folderSignatureNow(join(root, name)));
      // A slice is a few milliseconds: the gallery's windows and marks go in between.
      if (at + SIGNATURE_SLICE < names.length) await nextTurn();
    }
    const present = new Set(names);
    const collections =
      !scope || scope.boards || boardsNamed ? await new Collections(() => root).signature() : undefined;
    const readCollections = this.catalog.use(
      (db) =>
        db.prepare(`select value from meta where key = 'collections'`).pluck().all()[0] as string | undefined,
    );
    // Newest first: during a first build the gallery's first screens (newest first) fill at once,
    // and later folders only add to the end of the list.
    const now = Date.now();
    /** Whether the catalog's rows of a folder are still what is on disk: not named, and its signature unchanged. */
    const current = (name: string, signature: string) =>
      !named.has(name) && stillCurrent(known.get(name)?.signature, signature, now);
    const changed = names
      .map((name, i) => ({ name, signature: signatures[i]! }))
      .filter(({ name, signature }) => !current(name, signature))
      .sort((a, b) => batchFileStamp(b.signature)[0] - batchFileStamp(a.signature)[0]);
    // The folders this sync leaves alone count as they are: those on disk and unchanged. A folder
    // deleted from disk is still in the catalog until this sync removes it, but not in the library.
    const kept = { images: 0, batchBytes: 0 };
    names.forEach((name, i) => {
      const folder = known.get(name);
      if (!folder || !current(name, signatures[i]!)) return;
      kept.images += folder.images;
      kept.batchBytes += batchFileStamp(signatures[i]!)[1];
    });
    const toRead = changed.map((c) => batchFileStamp(c.signature)[1]);
    const estimate =
      !scope && changed.length > WAIT_FOR_FOLDERS ? new ImagesEstimate(kept, toRead) : undefined;
    // Before any query waiting on the plan goes on, so no overview asked meanwhile (a restart
    // resuming a build) presents the images indexed so far as the library's total.
    if (estimate) this.report({ done: 0, total: changed.length, imagesAbout: estimate.imagesAbout });
    return {
      root,
      changed,
      estimate,
      gone: [...known.keys()].filter((name) => !present.has(name)),
      collections: collections === readCollections && !boardsNamed ? undefined : collections,
    };
  }

  private async apply({ root, changed, gone, collections, estimate }: SyncPlan): Promise<boolean> {
    if (collections !== undefined) await this.readCollections(root, collections);
    if (!changed.length && !gone.length) return collections !== undefined;
    if (gone.length)
      this.catalog.use((db) => db.transaction(() => gone.forEach((name) => removeFolder(db, name)))());
    for (let i = 0; i < changed.length; i++) {
      if (this.root() !== root) return true;
      const { name } = changed[i]!;
      const dir = join(root, name);
      let signature = await folderSignature(dir);
      let record = await readBatchFolder(dir, this.me(), this.hashFileOf(root, name));
      // Written to while it was read (this studio's own marks, a pick and its alternatives made
      // together): read again, or the rows would keep the marks from before the write until the
      // folder is next read (the gallery showed the alternatives, not the pick).
      for (let again = 0; again < 3; again++) {
        const after = await folderSignature(dir);
        if (after === signature) break;
        signature = after;
        record = await readBatchFolder(dir, this.me(), this.hashFileOf(root, name));
      }
      // A folder still arriving is read again when its files change or its time as arriving is up.
      const kept = record.arrivingUntil ? arrivingSignature(signature, record.arrivingUntil) : signature;
      this.catalog.use((db) =>
        db.transaction(() => {
          restack(db, writeFolder(db, name, kept, record.images, record.problem, record.people));
        })(),
      );
      estimate?.read(batchFileStamp(signature)[1], record.images.length);
      if (estimate && (i % 10 === 9 || i === 0) && i < changed.length - 1)
        this.report({ done: i + 1, total: changed.length, imagesAbout: estimate.imagesAbout });
      // Other calls (the poller, marks, the gallery's windows) run between folders.
      await nextTurn();
    }
    if (estimate) this.report(null);
    if (estimate) this.catalog.use(compact);
    this.catalog.noteChange();
    this.onChange({ reason: 'folders' });
    return true;
  }

  private report(indexing: NonNullable<LibraryOverview['indexing']> | null): void {
    this.indexing = indexing;
    this.onChange({ reason: 'indexing', indexing });
  }

  /** Puts the team's boards into the catalog's tables, whole: they are small next to the images. */
  private async readCollections(root: string, signature: string): Promise<void> {
    const list = await new Collections(() => root).read();
    this.catalog.use((db) =>
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
    this.catalog.noteChange();
    this.onChange({ reason: 'collections' });
  }
}

/**
 * After a long build (the first of a big library): the full-text indexes are in many pieces, and
 * merged, searches read one piece each. The other indexes are a third empty (rows arrive newest
 * first, prompts in no order) and the merges left pages free: rewritten once (VACUUM), the catalog
 * is a quarter smaller (520 against 384 bytes an image at 100k). It holds the catalog about 2 s at
 * a million images, once. The copy is made on disk, not in memory (temp_store: 350 MB at 1M), and
 * the write-ahead log it went through is emptied after.
 */
function compact(db: CatalogDb): void {
  db.exec(
    `insert into images_terms (images_terms) values ('optimize');
     insert into images_text (images_text) values ('optimize');`,
  );
  try {
    db.exec('pragma temp_store = file; vacuum;');
    db.exec('pragma wal_checkpoint(truncate);');
  } catch (err) {
    // Only the size is lost: the catalog answers the same.
    if (isCorrupt(err)) throw err;
    logCaught('library catalog compaction', err);
  } finally {
    db.exec('pragma temp_store = memory;');
  }
}

/** Two asks for folders (and boards) made while a sync ran, as one. */
function widen(scope: SyncScope | undefined, more: SyncScope): SyncScope {
  if (!scope) return { folders: [...new Set(more.folders)], boards: more.boards };
  return { folders: [...new Set([...scope.folders, ...more.folders])], boards: scope.boards || more.boards };
}
