import type { z } from 'zod';
import {
  WHAT_WORKED_MODEL,
  pickInterval,
  rankWhatWorked,
  type WhatWorkedResult,
  type WhatWorkedRow,
  type whatWorkedQuerySchema,
} from '../../../src-shared/what-worked';
import type { CatalogDb } from './catalog-db';
import { ID_SQL } from './catalog-ids';
import { FROM, where } from './catalog-list-sql';

type Query = z.output<typeof whatWorkedQuerySchema>;

/**
 * Whose marks count, as SQL over an image's own columns (catalog-db.ts). Mine: this person's mark.
 * Everyone: picked by anyone, rejected by anyone (an image people disagree on counts in both), as
 * the Library's "anyone" filters read them, so a row opens on the same images. Agreement: picked
 * (or rejected) only where at least two people marked the image and all alike, as the Library's
 * "agree" filter. Unrated: nobody marked it and it has no stars, as the Library's "unrated".
 */
const MARKS: Record<Query['marksBy'], { picked: string; rejected: string; unrated: string }> = {
  mine: {
    picked: `images.mark = 'picked'`,
    rejected: `images.mark = 'rejected'`,
    unrated: 'images.mark is null and images.stars = 0',
  },
  everyone: {
    picked: 'images.picks > 0',
    rejected: 'images.rejects > 0',
    unrated: 'images.marked = 0 and images.mark is null and images.stars = 0',
  },
  agreement: {
    picked: 'images.marked >= 2 and images.split = 0 and images.picks > 0',
    rejected: 'images.marked >= 2 and images.split = 0 and images.rejects > 0',
    unrated: 'images.marked = 0 and images.mark is null and images.stars = 0',
  },
};

/** Sums of one row: images, picked, rejected, unrated, starred images and their stars. */
const SUMS = 'sum(n), sum(picked), sum(rejected), sum(unrated), sum(starred), sum(stars)';

/**
 * "What worked" from the catalog alone, in SQLite throughout. First the filtered images are added
 * up by folder and prompt parts (a number an image, catalog-db.ts) walking images_worked, which
 * holds every column needed in that order: no sort, no visit of the rows (a search's matches come
 * from the full-text indexes instead, and only they are visited). Those groups (a few per batch)
 * go to a temporary table, and are then grouped again by the values asked for (joined by
 * name to `part_values`, and the folder's model): only the view's rows come out. The team's stars,
 * for everyone's marks, come from the starred images only. Nothing reads a folder.
 */
export function whatWorked(db: CatalogDb, q: Query): WhatWorkedResult {
  const w = where(db, q);
  const marks = MARKS[q.marksBy];
  const mine = q.marksBy === 'mine';
  db.exec('drop table if exists temp.what_worked');
  db.prepare(
    `create temp table what_worked as
     select images.folder as folder, images.parts as parts, count(*) as n, sum(${marks.picked}) as picked,
       sum(${marks.rejected}) as rejected, sum(${marks.unrated}) as unrated,
       ${mine ? 'sum(images.stars > 0)' : '0'} as starred, ${mine ? 'sum(images.stars)' : '0'} as stars
     from images ${w.matches.length ? '' : 'indexed by images_worked'} ${w.sql}
     group by images.folder, images.parts`,
  ).run(...w.params);
  try {
    // Everyone's stars: each starred image once, at the mean of the stars people gave it.
    if (!mine)
      db.prepare(
        `insert into what_worked (folder, parts, n, picked, rejected, unrated, starred, stars)
         select images.folder, images.parts, 0, 0, 0, 0, count(*), sum(ts.stars)
         from (select image, avg(stars) as stars from team_marks where stars > 0 group by image) ts
         cross join images on images.rowid = ts.image ${w.sql} group by images.folder, images.parts`,
      ).run(...w.params);
    // The groups by parts (and model) first: a few hundred rows, each then given its values by name.
    const byModel = q.by.includes(WHAT_WORKED_MODEL);
    const joins: string[] = [];
    const keys = q.by.map((name, k) => {
      if (name === WHAT_WORKED_MODEL) return 'c.model';
      joins.push(`left join part_values v${k} on v${k}.combo = c.parts and v${k}.name = ?`);
      return `coalesce(v${k}.value, '')`;
    });
    const rows = db
      .prepare(
        `with c as (
           select g.parts, ${byModel ? `coalesce(f.model, '')` : `''`} as model, sum(n) as n, sum(picked) as picked,
             sum(rejected) as rejected, sum(unrated) as unrated, sum(starred) as starred, sum(stars) as stars
           from what_worked g ${byModel ? 'left join folders f on f.id = g.folder' : ''} group by 1, 2)
         select ${keys.map((k, i) => `${k} as k${i}`).join(', ')}, ${SUMS}
         from c ${joins.join(' ')} group by ${keys.map((_, i) => `k${i}`).join(', ')}`,
      )
      .raw()
      .all(...q.by.filter((name) => name !== WHAT_WORKED_MODEL)) as (string | number)[][];
    // Every variable of the parts present, in their templates' order (the first template first).
    const variables = db
      .prepare(
        `select name from part_values where combo in (select parts from what_worked)
         group by name order by min(combo * 1000 + ord), name`,
      )
      .pluck()
      .all() as string[];
    const [images, unparted] = db
      .prepare('select sum(n), sum(case when parts is null then n else 0 end) from what_worked')
      .raw()
      .get() as [number | null, number | null];
    const out: WhatWorkedRow[] = rows
      .map((r) => {
        const [count, picked, rejected, unrated, starred, stars] = r
          .slice(q.by.length)
          .map(Number) as number[];
        const interval = pickInterval(picked!, count!);
        return {
          values: Object.fromEntries(q.by.map((name, i) => [name, String(r[i])])),
          images: count!,
          picked: picked!,
          rejected: rejected!,
          unrated: unrated!,
          starred: starred!,
          meanStars: starred ? stars! / starred : null,
          pickInterval: interval,
          score: interval.low,
        };
      })
      // A group of stars only (the team's) holds no image the filter kept.
      .filter((r) => r.images > 0);
    return {
      variables: [...variables.filter((v) => v !== WHAT_WORKED_MODEL), WHAT_WORKED_MODEL],
      rows: rankWhatWorked(out),
      images: images ?? 0,
      unparted: unparted ?? 0,
    };
  } finally {
    db.exec('drop table if exists temp.what_worked');
  }
}

/** A template and values (prompt_parts), as the catalog keeps them. */
interface Combo {
  template?: string;
  values: [string, string][];
}

/** The combinations of these ids, read once. */
function combosOf(db: CatalogDb, ids: Iterable<number | null>): Map<number, Combo> {
  const wanted = [...new Set([...ids].filter((id): id is number => id !== null))];
  const out = new Map<number, Combo>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = db
      .prepare(
        `select id, template, vals from prompt_parts where id in (${wanted.slice(i, i + 500).join(',')})`,
      )
      .raw()
      .all() as [number, string | null, string][];
    for (const [id, template, vals] of rows)
      out.set(id, {
        ...(template !== null ? { template } : {}),
        values: JSON.parse(vals) as [string, string][],
      });
  }
  return out;
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
        `select images.parts, ${ID_SQL}, images.prompt, f.model, f.task_name from ${FROM}
         ${w.sql ? `${w.sql} and` : 'where'} ${MARKS[q.marksBy].picked}
         order by images.created_at, images.folder, images.rowid`,
      )
      .raw()
      .all(...w.params) as [number | null, string, string, string, string][];
    const combos = combosOf(
      db,
      rows.map((r) => r[0]),
    );
    return rows.map(([parts, id, prompt, model, taskName]) => {
      const combo = parts === null ? undefined : combos.get(parts);
      return {
        id,
        prompt,
        model,
        taskName,
        ...(combo?.template !== undefined ? { template: combo.template } : {}),
        values: Object.fromEntries(combo?.values ?? []),
      };
    });
  });
}
