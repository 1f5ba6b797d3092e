import type { CatalogDb } from './catalog-db';

/**
 * A near-duplicate stack's scope: the folders whose images may stack together. A folder of a run
 * (one draft sent to several models) shares the run's, since its models make near-identical
 * pictures of the same rows; any other folder shares its batch's. Stacks are made within a scope
 * (catalog-folder-rows.ts) and one stack is listed by walking its scope's images, a few hundred
 * rows, instead of keeping an index of every image's leader (catalog-list-sql.ts): the rule is
 * written here once, so the two never disagree on which images a stack can hold.
 */

/**
 * The ids of the folders in this folder's stack scope, itself included; none for a folder without
 * a batch (a damaged record: nothing to stack).
 */
export function stackScope(db: CatalogDb, folder: number): number[] {
  return db
    .prepare(
      `select s.id from folders l join folders s
       on (l.run_id is not null and s.run_id = l.run_id) or (l.run_id is null and s.batch_id = l.batch_id)
       where l.id = ?`,
    )
    .pluck()
    .all(folder) as number[];
}
