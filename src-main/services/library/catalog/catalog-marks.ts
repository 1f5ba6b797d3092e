import { join } from 'node:path';
import type { LibraryMarkChange, ReviewMark } from '../../../../src-shared/library-view';
import { folderSignature } from '../folders/batch-folder-record';
import { teamColumns } from './catalog-folder-rows';
import { teamOfRows, type Person } from './catalog-team';
import { writePersonMarks } from '../folders/review-files';
import type { TeamEntry } from '../folders/team-marks';
import type { CatalogConnection } from './catalog-connection';
import { rowOf } from './catalog-ids';
import type { CatalogReading, Row } from './catalog-reading';

export type Mark = { mark?: ReviewMark; stars?: number };

/**
 * Marks and stars: this person's, written to their own file in each batch folder
 * (review-files.ts), which stays the truth, and to the same rows of the catalog. The window hears of them from the caller (`library.changed` with the
 * marks themselves), not from here.
 */
export class CatalogMarks {
  private marking: Promise<unknown> = Promise.resolve();
  private lastSeq = 0;

  constructor(
    private catalog: CatalogConnection,
    private reading: CatalogReading,
    private person: () => Person = () => ({ id: 'studio', name: '' }),
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
   * Sets this person's marks or stars on many images: their file in each batch folder is rewritten
   * atomically and durably, then the same rows of the catalog are changed in place. No folder is read again.
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
    const person = this.person();
    const changes: LibraryMarkChange[] = [];
    for (const [folder, rows] of byFolder) {
      const dir = join(this.catalog.openRoot, folder);
      // The folder as the catalog last read it, or not: only then is the write's new signature
      // the catalog's own doing (a folder still arriving, or changed by someone else since it was
      // read, keeps its old signature and is read again).
      const before = await folderSignature(dir);
      // A partial change keeps the rest of what the person's own file says; where they have no entry
      // yet, what they see (the earlier review.json's mark, from the catalog).
      const seen = new Map(rows.map((r) => [r.file, { mark: r.mark, stars: r.stars }]));
      const own = await writePersonMarks(
        dir,
        person,
        (file, now) => {
          const base = now ?? seen.get(file)!;
          return {
            mark: change.mark !== undefined ? change.mark : base.mark,
            stars: change.stars ?? base.stars,
          };
        },
        rows.map((r) => r.file),
        (seen) => {
          // The person's own counter: never behind anything they wrote, and never read off a clock
          // another machine set (review-files.ts).
          this.lastSeq = Math.max(seen + 1, this.lastSeq + 1, Date.now());
          return this.lastSeq;
        },
      );
      const next = new Map(
        rows.map((r) => [r.file, { mark: own.get(r.file)!.mark, stars: own.get(r.file)!.stars }]),
      );
      const signature = await folderSignature(dir);
      const team = this.catalog.use((db) => {
        db.transaction(() => {
          const entry = db.prepare(
            'insert or replace into team_marks (image, person, mark, stars) values (?, ?, ?, ?)',
          );
          const entries = db.prepare('select person, mark, stars from team_marks where image = ?');
          const update = db.prepare(
            `update images set mark = ?, stars = ?, picks = ?, rejects = ?, marked = ?, split = ?, team_starred = ?,
             team_stars = ? where rowid = ?`,
          );
          db.prepare('insert or replace into people (id, name) values (?, ?)').run(person.id, person.name);
          for (const r of rows) {
            // By id again: the folder may have been read anew (new rowids) while the file was written.
            const at = rowOf(db, r.id);
            if (at === undefined) continue;
            const { mark, stars } = next.get(r.file)!;
            entry.run(at, person.id, mark, stars);
            update.run(mark, stars, ...teamColumns(entries.all(at) as TeamEntry[]), at);
          }
          // The person's new file is the catalog's own doing: where nothing else changed since the
          // folder was read, the next look need not read it again. Another studio's change landing
          // meanwhile is named in its change journal, which reads the folder whatever its signature.
          // A damaged marks file of this person's that the write replaced is mended.
          db.prepare(
            `update folders set signature = case when signature = ? then ? else signature end,
             problem = case when problem like ? then null else problem end where name = ?`,
          ).run(before, signature, `%"review/${person.id}.json"%`, folder);
        })();
        const at = rows.map((r) => rowOf(db, r.id) ?? -1);
        const team = teamOfRows(db, at, person.id);
        return rows.map((r, i) => team.get(at[i]!));
      });
      rows.forEach((r, i) => {
        const marks = team[i];
        changes.push({ id: r.id, ...next.get(r.file)!, ...(marks ? { team: marks } : {}) });
      });
      this.reading.marksChanged();
    }
    return changes;
  }
}
