import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { z } from 'zod';
import type {
  LibraryDetail,
  LibraryImage,
  LibraryQuery,
  LibraryResult,
} from '../../../src-shared/library-view';
import { libraryQuerySchema } from '../../../src-shared/library-view';
import { StudioError } from '../../../src-shared/studio-error';
import { writeJsonAtomic } from './atomic-file';
import { BATCH_FILE, STAGING_DIR } from './batch-folder';
import { searchTerms } from './search-terms';
import { logCaughtUnlessMissing } from '../log/studio-log';

export const REVIEW_FILE = 'review.json';
export const REVIEW_FORMAT = 'batch-image-studio.review/1';

const batchFileSchema = z.object({
  batch: z
    .object({
      id: z.string(),
      task_name: z.string().default(''),
      model: z.string().default(''),
      created_at: z.number().default(0),
    })
    .passthrough(),
  images: z.array(
    z.object({
      customId: z.string(),
      imageIndex: z.number().default(0),
      file: z.string(),
      mime: z.string().default('image/png'),
      bytes: z.number().default(0),
      rowIndex: z.number().nullable().default(null),
      prompt: z.string().default(''),
    }),
  ),
  draft: z
    .object({ model: z.string().optional(), name: z.string().optional() })
    .passthrough()
    .nullable()
    .optional(),
});

const reviewSchema = z.object({
  images: z.record(
    z.string(),
    z.object({
      mark: z.enum(['picked', 'rejected']).nullable().default(null),
      stars: z.number().int().min(0).max(5).default(0),
    }),
  ),
});
type Review = z.infer<typeof reviewSchema>['images'];

interface Entry extends LibraryImage {
  folder: string;
  file: string;
  rowIndex: number | null;
}

type Problem = Omit<LibraryResult['problems'][number], 'folder'>;

interface FolderState {
  signature: string;
  entries: Entry[];
  problem?: Problem;
}

/**
 * Why a file of a batch folder cannot be used, in words. Never the parser's own text ("Expected
 * double-quoted property name…"): it means nothing to the person who has to fix the folder.
 */
function unreadable(file: string, err: unknown): Problem {
  if (err instanceof SyntaxError)
    return { reason: 'FILE_NOT_JSON', file, message: `${file} is damaged (not valid JSON)` };
  if (err instanceof z.ZodError)
    return { reason: 'FILE_NOT_BATCH', file, message: `${file} does not describe a batch` };
  return { reason: 'FILE_UNREADABLE', file, message: `${file} cannot be read` };
}

/**
 * The library as the gallery sees it: every image of every batch folder under the root, with its
 * prompt and review marks, and a full-text index over prompts in English and Chinese. Folders are
 * read again only when they change; a corrupt or half-copied folder is reported and skipped.
 */
export class LibraryIndex {
  private folders = new Map<string, FolderState>();
  private search?: MiniSearch<Entry>;
  private byId = new Map<string, Entry>();
  private currentRoot = '';

  constructor(private root: () => string) {}

  private signature(dir: string): string {
    const parts = [BATCH_FILE, REVIEW_FILE, 'images'].map((name) => {
      const s = statSync(join(dir, name), { throwIfNoEntry: false });
      return s ? `${s.mtimeMs}:${s.size}` : '-';
    });
    return parts.join('|');
  }

  private readFolder(root: string, folder: string): FolderState {
    const dir = join(root, folder);
    const signature = this.signature(dir);
    try {
      if (!existsSync(join(dir, BATCH_FILE)))
        return {
          signature,
          entries: [],
          problem: {
            reason: 'NO_BATCH_FILE',
            file: BATCH_FILE,
            message: 'no batch.json: not a batch folder, or only half copied',
          },
        };
      const record = batchFileSchema.parse(JSON.parse(readFileSync(join(dir, BATCH_FILE), 'utf8')));
      let review: Review = {};
      // A damaged review.json costs the marks, not the images: they are shown, and the folder reported.
      let reviewProblem: Problem | undefined;
      if (existsSync(join(dir, REVIEW_FILE))) {
        try {
          const parsed = reviewSchema.safeParse(JSON.parse(readFileSync(join(dir, REVIEW_FILE), 'utf8')));
          if (parsed.success) review = parsed.data.images;
        } catch (err) {
          reviewProblem = { ...unreadable(REVIEW_FILE, err), reason: 'REVIEW_DAMAGED' };
          reviewProblem.message = `${REVIEW_FILE} is damaged: picks and stars are not shown`;
        }
      }
      const present = new Set(
        existsSync(join(dir, 'images')) ? readdirSync(join(dir, 'images')).map((f) => `images/${f}`) : [],
      );
      const missing = record.images.filter((i) => !present.has(i.file)).length;
      const entries = record.images
        .filter((i) => present.has(i.file))
        .map((i) => ({
          id: `${folder}/${i.file}`,
          folder,
          file: i.file,
          batchId: record.batch.id,
          taskName: record.batch.task_name,
          model: record.batch.model || record.draft?.model || '',
          customId: i.customId,
          prompt: i.prompt,
          rowIndex: i.rowIndex,
          createdAt: Math.floor(record.batch.created_at),
          mime: i.mime,
          bytes: i.bytes,
          mark: review[i.file]?.mark ?? null,
          stars: review[i.file]?.stars ?? 0,
        }));
      return {
        signature,
        entries,
        problem: missing
          ? {
              reason: 'IMAGES_MISSING',
              missing,
              total: record.images.length,
              message: `${missing} of ${record.images.length} images are missing (half copied?)`,
            }
          : reviewProblem,
      };
    } catch (err) {
      return { signature, entries: [], problem: unreadable(BATCH_FILE, err) };
    }
  }

  /** Brings the index up to date with the disk, reading only folders that changed. */
  refresh(): void {
    const root = this.root();
    if (root !== this.currentRoot) {
      this.folders.clear();
      this.currentRoot = root;
      this.search = undefined;
    }
    let names: string[] = [];
    try {
      names = readdirSync(root, { withFileTypes: true })
        .filter((d) => d.isDirectory() && !d.name.startsWith('.') && d.name !== STAGING_DIR)
        .map((d) => d.name);
    } catch (err) {
      logCaughtUnlessMissing('library folder listing', err);
      names = [];
    }
    let changed = false;
    const seen = new Set(names);
    for (const name of [...this.folders.keys()]) {
      if (!seen.has(name)) {
        this.folders.delete(name);
        changed = true;
      }
    }
    for (const name of names) {
      const current = this.folders.get(name);
      const signature = this.signature(join(root, name));
      if (current && current.signature === signature) continue;
      this.folders.set(name, this.readFolder(root, name));
      changed = true;
    }
    if (changed || this.byId.size === 0) this.rebuild();
  }

  private rebuild(): void {
    this.byId = new Map();
    for (const state of this.folders.values()) for (const e of state.entries) this.byId.set(e.id, e);
    // The full-text index is built on the first search: opening the gallery need not wait for it.
    this.search = undefined;
  }

  private searchIndex(): MiniSearch<Entry> {
    if (this.search) return this.search;
    this.search = new MiniSearch<Entry>({
      fields: ['prompt', 'taskName', 'customId'],
      storeFields: [],
      tokenize: (text) => searchTerms(text),
      processTerm: (term) => term.toLowerCase(),
      searchOptions: {
        combineWith: 'AND',
        prefix: (term) => !/[\u3400-\u9fff]/.test(term),
        boost: { prompt: 2 },
      },
    });
    this.search.addAll([...this.byId.values()]);
    return this.search;
  }

  query(raw: LibraryQuery = {}): LibraryResult {
    this.refresh();
    const q = libraryQuerySchema.parse(raw);
    let list: Entry[];
    if (q.search?.trim()) {
      const hits = this.searchIndex().search(q.search.trim());
      list = hits.map((h) => this.byId.get(h.id as string)!).filter(Boolean);
    } else {
      list = [...this.byId.values()];
    }
    list = list.filter(
      (e) =>
        (!q.batchId || e.batchId === q.batchId) &&
        (!q.model || e.model === q.model) &&
        (q.from === undefined || e.createdAt >= q.from) &&
        (q.to === undefined || e.createdAt < q.to) &&
        (q.review === 'any' ||
          (q.review === 'unrated' ? e.mark === null && e.stars === 0 : e.mark === q.review)) &&
        e.stars >= q.minStars,
    );
    if (!q.search?.trim() || q.sort !== 'newest') {
      const byName = (a: Entry, b: Entry) =>
        a.folder === b.folder ? a.file.localeCompare(b.file, undefined, { numeric: true }) : 0;
      list.sort((a, b) => {
        switch (q.sort) {
          case 'oldest':
            return a.createdAt - b.createdAt || a.folder.localeCompare(b.folder) || byName(a, b);
          case 'stars':
            return b.stars - a.stars || b.createdAt - a.createdAt || byName(a, b);
          case 'prompt':
            return a.prompt.localeCompare(b.prompt) || byName(a, b);
          default:
            return b.createdAt - a.createdAt || b.folder.localeCompare(a.folder) || byName(a, b);
        }
      });
    }
    const batches = new Map<string, { id: string; taskName: string; images: number }>();
    const models = new Set<string>();
    for (const e of this.byId.values()) {
      const b = batches.get(e.batchId) ?? { id: e.batchId, taskName: e.taskName, images: 0 };
      b.images++;
      batches.set(e.batchId, b);
      if (e.model) models.add(e.model);
    }
    const strip = ({ folder: _f, file: _x, rowIndex: _r, ...image }: Entry): LibraryImage => image;
    return {
      root: this.currentRoot,
      total: list.length,
      items: list.map(strip),
      batches: [...batches.values()],
      models: [...models].sort(),
      problems: [...this.folders.entries()]
        .filter(([, s]) => s.problem)
        .map(([folder, s]) => ({ folder, ...s.problem! })),
    };
  }

  /**
   * One image by id. The index is read again only when it does not know the id: asking for many
   * images at once (thumbnails, marks, exports) must not rescan the library for each of them.
   */
  entry(id: string): Entry {
    if (!this.byId.has(id)) this.refresh();
    const entry = this.byId.get(id);
    if (!entry)
      throw new StudioError({
        code: 'STUDIO_IMAGE_NOT_FOUND',
        message: 'That image is no longer in the library.',
      });
    return entry;
  }

  detail(id: string): LibraryDetail {
    const e = this.entry(id);
    const path = join(this.currentRoot, e.folder, e.file);
    return {
      ...e,
      path,
      parameters: {
        model: e.model,
        batch_id: e.batchId,
        task_name: e.taskName,
        custom_id: e.customId,
        created_at: new Date(e.createdAt * 1000).toISOString(),
      },
    };
  }

  pathOf(id: string): string {
    const e = this.entry(id);
    return join(this.currentRoot, e.folder, e.file);
  }

  private marking: Promise<unknown> = Promise.resolve();

  /**
   * Sets marks or stars on many images; each batch folder's review.json is rewritten atomically.
   * Marks are applied one call after another: quick keystrokes never lose each other's writes.
   */
  mark(ids: string[], change: { mark?: 'picked' | 'rejected' | null; stars?: number }): Promise<number> {
    const run = this.marking.then(() => this.applyMarks(ids, change));
    this.marking = run.catch(() => undefined);
    return run;
  }

  private async applyMarks(
    ids: string[],
    change: { mark?: 'picked' | 'rejected' | null; stars?: number },
  ): Promise<number> {
    const byFolder = new Map<string, Entry[]>();
    for (const id of ids) {
      const e = this.entry(id);
      byFolder.set(e.folder, [...(byFolder.get(e.folder) ?? []), e]);
    }
    for (const [folder, entries] of byFolder) {
      const file = join(this.currentRoot, folder, REVIEW_FILE);
      let review: Review = {};
      try {
        const parsed = reviewSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
        if (parsed.success) review = parsed.data.images;
      } catch (err) {
        logCaughtUnlessMissing('review.json read', err);
        review = {};
      }
      for (const e of entries) {
        const current = review[e.file] ?? { mark: null, stars: 0 };
        review[e.file] = {
          mark: change.mark !== undefined ? change.mark : current.mark,
          stars: change.stars ?? current.stars,
        };
        e.mark = review[e.file]!.mark;
        e.stars = review[e.file]!.stars;
      }
      await writeJsonAtomic(file, { format: REVIEW_FORMAT, images: review });
      const state = this.folders.get(folder);
      if (state) state.signature = this.signature(join(this.currentRoot, folder));
    }
    return ids.length;
  }
}
