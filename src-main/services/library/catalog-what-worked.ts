import {
  WHAT_WORKED_MODEL,
  pickInterval,
  rankWhatWorked,
  type WhatWorkedResult,
  type WhatWorkedRow,
  type whatWorkedQuerySchema,
} from '../../../src-shared/what-worked';
import type { z } from 'zod';
import type { CatalogDb } from './catalog-db';
import { ID_SQL } from './catalog-ids';
import { FROM, where } from './catalog-list-sql';
import { TEMPLATE_PART } from './prompt-parts-of';

type Query = z.output<typeof whatWorkedQuerySchema>;

/**
 * Whose marks count, as SQL over an image's own columns (catalog-db.ts). Mine: this person's mark.
 * Everyone: picked by anyone, rejected by anyone (an image people disagree on counts in both), as
 * the Library's "anyone" filters read them, so a row opens on the same images. Agreement: picked
 * (or rejected) only where every person who marked the image did so. Unrated: nobody marked it
 * and it has no stars, as the Library's "unrated". Stars: this person's, or the mean of everyone's.
 */
const MARKS: Record<Query['marksBy'], { picked: string; rejected: string; unrated: string; stars: string }> =
  {
    mine: {
      picked: `images.mark = 'picked'`,
      rejected: `images.mark = 'rejected'`,
      unrated: 'images.mark is null and images.stars = 0',
      stars: 'images.stars',
    },
    everyone: {
      picked: 'images.picks > 0',
      rejected: 'images.rejects > 0',
      unrated: 'images.marked = 0 and images.mark is null and images.stars = 0',
      stars: 'coalesce(ts.stars, images.stars)',
    },
    agreement: {
      picked: 'images.marked > 0 and images.picks = images.marked',
      rejected: 'images.marked > 0 and images.rejects = images.marked',
      unrated: 'images.marked = 0 and images.mark is null and images.stars = 0',
      stars: 'coalesce(ts.stars, images.stars)',
    },
  };

/** Each image's stars as the team gave them: the mean of the people who starred it (few images). */
const TEAM_STARS = `left join (select image, avg(stars) as stars from team_marks where stars > 0 group by image) ts
  on ts.image = images.rowid`;

/**
 * "What worked" from the catalog alone, in three statements over the filtered images: the rows
 * (one GROUP BY over the images, their parts joined by name), the variables present, and the
 * totals. Nothing reads a folder.
 */
export function whatWorked(db: CatalogDb, q: Query): WhatWorkedResult {
  const w = where(db, q);
  const marks = MARKS[q.marksBy];
  const joins: string[] = [];
  const joinParams: string[] = [];
  const keys = q.by.map((name, k) => {
    if (name === WHAT_WORKED_MODEL) return 'f.model';
    joins.push(`left join image_parts p${k} on p${k}.image = images.rowid and p${k}.name = ?`);
    joinParams.push(name);
    return `coalesce(p${k}.value, '')`;
  });
  if (q.marksBy !== 'mine') joins.push(TEAM_STARS);
  const rows = db
    .prepare(
      `select ${keys.map((k, i) => `${k} as k${i}`).join(', ')}, count(*),
         sum(${marks.picked}), sum(${marks.rejected}), sum(${marks.unrated}),
         sum(${marks.stars} > 0), sum(${marks.stars})
       from ${FROM} ${joins.join(' ')} ${w.sql}
       group by ${keys.map((_, i) => `k${i}`).join(', ')}`,
    )
    .raw()
    .all(...joinParams, ...w.params) as (string | number | null)[][];
  const n = q.by.length;
  const out: WhatWorkedRow[] = rows.map((r) => {
    const [images, picked, rejected, unrated, starred, stars] = r.slice(n).map(Number) as number[];
    const interval = pickInterval(picked!, images!);
    return {
      values: Object.fromEntries(q.by.map((name, i) => [name, String(r[i] ?? '')])),
      images: images!,
      picked: picked!,
      rejected: rejected!,
      unrated: unrated!,
      starred: starred!,
      meanStars: starred ? stars! / starred : null,
      pickInterval: interval,
      score: interval.low,
    };
  });
  const variables = db
    .prepare(
      `select p.name from ${FROM} join image_parts p on p.image = images.rowid ${w.sql}
       group by p.name having p.name <> ? order by min(p.ord), p.name`,
    )
    .pluck()
    .all(...w.params, TEMPLATE_PART) as string[];
  const [images, unparted] = db
    .prepare(
      `select count(*), sum(not exists (select 1 from image_parts u where u.image = images.rowid))
       from ${FROM} ${w.sql}`,
    )
    .raw()
    .get(...w.params) as [number, number | null];
  return {
    variables: [...variables.filter((v) => v !== WHAT_WORKED_MODEL), WHAT_WORKED_MODEL],
    rows: rankWhatWorked(out),
    images,
    unparted: unparted ?? 0,
  };
}

/** A picked image of a row of "What worked", with what its prompt was made of. */
export interface PickedImage {
  id: string;
  prompt: string;
  model: string;
  taskName: string;
  template?: string;
  values: Record<string, string>;
}

/**
 * The images picked (by `marksBy`'s rule) in each chosen row of "What worked", oldest first: the
 * row's values as a filter (its parts, and its model), over the query's own filter.
 */
export function whatWorkedPicks(db: CatalogDb, q: Query, chosen: Record<string, string>[]): PickedImage[][] {
  return chosen.map((values) => {
    const parts = Object.fromEntries(
      Object.entries(values).filter(([name]) => name !== WHAT_WORKED_MODEL && q.by.includes(name)),
    );
    const model = q.by.includes(WHAT_WORKED_MODEL) ? values[WHAT_WORKED_MODEL] : undefined;
    // A model asked for by the row and another by the filter: no image is both.
    if (model !== undefined && q.model !== undefined && model !== q.model) return [];
    const w = where(db, { ...q, parts: { ...q.parts, ...parts }, model: model ?? q.model });
    const rows = db
      .prepare(
        `select images.rowid, ${ID_SQL}, images.prompt, f.model, f.task_name from ${FROM}
         ${w.sql ? `${w.sql} and` : 'where'} ${MARKS[q.marksBy].picked}
         order by images.created_at, images.folder, images.rowid`,
      )
      .raw()
      .all(...w.params) as [number, string, string, string, string][];
    const partsOf = new Map<number, { template?: string; values: Record<string, string> }>();
    for (let i = 0; i < rows.length; i += 500) {
      const slice = rows.slice(i, i + 500).map(([row]) => Number(row));
      const found = db
        .prepare(
          `select image, name, value from image_parts where image in (${slice.join(',')}) order by image, ord`,
        )
        .raw()
        .all() as [number, string, string][];
      for (const [image, name, value] of found) {
        const entry = partsOf.get(image) ?? { values: {} };
        if (name === TEMPLATE_PART) entry.template = value;
        else entry.values[name] = value;
        partsOf.set(image, entry);
      }
    }
    return rows.map(([row, id, prompt, model, taskName]) => ({
      id,
      prompt,
      model,
      taskName,
      ...(partsOf.get(row) ?? { values: {} }),
    }));
  });
}
