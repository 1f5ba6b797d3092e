import { join } from 'node:path';
import type { LibraryMarkChange, ReviewMark } from '../../../src-shared/library-view';
import { logCaughtUnlessMissing } from '../log/studio-log';
import { writeJsonAtomic } from './atomic-file';
import { folderSignature, readReview, REVIEW_FILE, REVIEW_FORMAT, type Review } from './batch-folder-record';
import type { CatalogConnection } from './catalog-connection';
import { rowOf } from './catalog-ids';
import type { CatalogReading, Row } from './catalog-reading';

export type Mark = { mark?: ReviewMark; stars?: number };

/**
 * Marks and stars: written to each batch folder's review.json, which stays the truth, and to the
 * same rows of the catalog. The window hears of them from the caller (`library.changed` with the
 * marks themselves), not from here.
 */
export class CatalogMarks {
  private marking: Promise<unknown> = Promise.resolve();

  constructor(
    private catalog: CatalogConnection,
    private reading: CatalogReading,
  ) {}

  /** The marks of these images as the catalog has them: what an undo puts back. Unknown ids are left out. */
  marksOf(ids: string[]): LibraryMarkChange[] {
    const out: LibraryMarkChange[] = [];
    this.catalog.use((db) => {
      const read = db.prepare('select mark, stars from images where rowid = ?');
      for (const id of new Set(ids)) {
        const at = rowOf(db, id);
        const row = at === undefined ? undefined : (read.get(at) as { mark: ReviewMark; stars: number });
        if (row) out.push({ id, mark: row.mark, stars: row.stars });
      }
    });
    return out;
  }

  /**
   * Sets marks or stars on many images: each batch folder's review.json is rewritten atomically
   * and durably, then the same rows of the catalog are changed in place. No folder is read again.
   * Calls run one after another, so quick keystrokes never lose each other's writes.
   */
  mark(ids: string[], change: Mark): Promise<LibraryMarkChange[]> {
    const run = this.marking.then(() => this.applyMarks(ids, change));
    this.marking = run.catch(() => undefined);
    return run;
  }

  private async applyMarks(ids: string[], change: Mark): Promise<LibraryMarkChange[]> {
    const byFolder = new Map<string, Row[]>();
    for (const id of new Set(ids)) {
      const r = await this.reading.entry(id);
      byFolder.set(r.folder, [...(byFolder.get(r.folder) ?? []), r]);
    }
    const changes: LibraryMarkChange[] = [];
    for (const [folder, rows] of byFolder) {
      const dir = join(this.catalog.openRoot, folder);
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
      this.catalog.use((db) =>
        db.transaction(() => {
          const update = db.prepare('update images set mark = ?, stars = ? where rowid = ?');
          // By id again: the folder may have been read anew (new rowids) while review.json was written.
          for (const r of rows)
            update.run(review[r.file]!.mark, review[r.file]!.stars, rowOf(db, r.id) ?? -1);
          // The folder's new review.json is the catalog's own doing: the next start need not read it.
          // A damaged review.json it replaced is no longer a problem of the folder.
          db.prepare(
            `update folders set signature = ?,
             problem = case when problem like '%"REVIEW_DAMAGED"%' then null else problem end where name = ?`,
          ).run(signature, folder);
        })(),
      );
      this.reading.marksChanged();
    }
    return changes;
  }
}
