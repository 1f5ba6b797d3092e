import type { z } from 'zod';
import {
  WHAT_WORKED_MODEL,
  pickInterval,
  rankWhatWorked,
  type WhatWorkedResult,
  type WhatWorkedRow,
  type whatWorkedQuerySchema,
} from '../../../../src-shared/what-worked';
import { MARKED_SQL, type CatalogDb } from './catalog-db';
import { ID_SQL } from './catalog-ids';
import { FROM, where } from './catalog-list-sql';
import { fewBefore, lastSlot, partKey, partShapes } from './catalog-parts';

type Query = z.output<typeof whatWorkedQuerySchema>;

/**
 * What a row adds up over the images with a mark or stars of anyone's (MARKED_SQL), in the temporary
 * table's order; rated: not unrated, each image's unrated being its images less these.
 */
const SUMS = ['picked', 'rejected', 'rated', 'starred', 'stars'] as const;

/**
 * Whose marks count, as SQL over an image's own columns (catalog-db.ts). Mine: this person's mark
 * and stars. Everyone: picked by anyone, rejected by anyone (an image people disagree on counts in
 * both), as the Library's "anyone" filters read them, so a row opens on the same images; the stars
 * of everyone whose entry counts (team-marks.ts), an image at their mean. Agreement: picked (or
 * rejected) only where at least two people marked the image and all alike, as the Library's
 * "agree" filter. Unrated: nobody marked it and it has no stars, as the Library's "unrated".
 */
const TEAM_STARS = {
  starred: 'images.team_starred > 0',
  stars: 'case when images.team_starred > 0 then images.team_stars * 1.0 / images.team_starred else 0 end',
};
const MARKS: Record<Query['marksBy'], Record<(typeof SUMS)[number], string>> = {
  mine: {
    picked: `images.mark = 'picked'`,
    rejected: `images.mark = 'rejected'`,
    rated: 'images.mark is not null or images.stars > 0',
    starred: 'images.stars > 0',
    stars: 'images.stars',
  },
  everyone: {
    picked: 'images.picks > 0',
    rejected: 'images.rejects > 0',
    rated: 'images.marked > 0 or images.mark is not null or images.stars > 0',
    ...TEAM_STARS,
  },
  agreement: {
    picked: 'images.marked >= 2 and images.split = 0 and images.picks > 0',
    rejected: 'images.marked >= 2 and images.split = 0 and images.rejects > 0',
    rated: 'images.marked > 0 or images.mark is not null or images.stars > 0',
    ...TEAM_STARS,
  },
};

/**
 * "What worked" from the catalog alone, in SQLite throughout, in two steps. First the filtered
 * images are added up by folder and by the number of each value asked for, read from each image's
 * own entry in images_worked (its variables' names and first values as numbers: catalog-parts.ts),
 * so no image's combination is looked at, however many distinct ones there are. Where the values
 * asked for come first in their templates (the usual case), the walk groups in the index's own
 * order with no sort; otherwise each image is added to its group in a small temporary table. Those
 * groups (a few per folder) are then grouped again by the values' texts and the folder's model:
 * only the view's rows come out. Nothing reads a folder.
 */
export function whatWorked(db: CatalogDb, q: Query): WhatWorkedResult {
  const w = where(db, q);
  const marks = MARKS[q.marksBy];
  const shapes = partShapes(db);
  const variables = q.by.filter((name) => name !== WHAT_WORKED_MODEL);
  const keys = variables.map((name) => partKey(shapes, name));
  const last = lastSlot(shapes, variables);
  const ordered = last !== undefined && fewBefore(db, shapes, variables, last);
  const k = keys.map((_, i) => `k${i}`);
  const columns = ['f', 's', ...k, 'n', ...SUMS];
  db.exec('drop table if exists temp.what_worked');
  db.exec(
    `create temp table what_worked (${columns.join(', ')}, primary key (${['f', 's', ...k].join(', ')})) without rowid`,
  );
  try {
    const byModel = q.by.includes(WHAT_WORKED_MODEL);
    const walk = (index: string) => (w.matches.length ? '' : `indexed by ${index}`);
    const params = [...keys.flatMap((key) => key.params), ...w.params];
    const slots = ordered ? Array.from({ length: last + 1 }, (_, i) => `images.v${i}`) : [];
    // Each image's group: the folder kept for its model only (otherwise a folder's groups fall into
    // the same rows), its variables' names and the values asked for.
    const group = `${byModel ? 'images.folder' : '0'}, coalesce(images.shape, 0), ${keys.map((key) => `${key.sql},`).join(' ')}`;
    /**
     * Adds up `sums` (SQL over an image, by name) of the images under `condition` into the table.
     * In the index's order, its groups are made first and only then given their keys (worked out
     * once a group, not once an image); otherwise each image goes to its row.
     */
    const addUp = (sums: string[], index: string, condition: string, update: string) => {
      const names = sums.map((_, i) => `a${i}`);
      const source = ordered
        ? `(select ${['images.folder as folder', 'images.shape as shape', ...slots.map((v, i) => `${v} as v${i}`)].join(', ')},
             ${sums.map((sql, i) => `${sql === '1' ? 'count(*)' : `coalesce(sum(${sql}), 0)`} as a${i}`).join(', ')}
           from images ${walk(index)} ${condition} group by ${['images.folder', 'images.shape', ...slots].join(', ')}) as images`
        : `images ${walk(index)} ${condition}`;
      db.prepare(
        `insert into what_worked (${columns.join(', ')})
         select ${group} ${ordered ? names.map((name) => `images.${name}`).join(', ') : sums.map((sql) => `coalesce(${sql}, 0)`).join(', ')}
         from ${source} ${ordered ? 'where true' : ''} on conflict do update set ${update}`,
      ).run(...params);
    };
    // Two walks: every image counted (nothing else added up: the cheapest), then the few with a
    // mark or stars added up, from their own index; most images have none, and adding up costs. A
    // mark compared is null where there is none: a sum of nothing but nulls is made 0, as a null
    // added on conflict would make the whole sum null.
    addUp(['1', ...SUMS.map(() => '0')], 'images_worked', w.sql || 'where true', 'n = n + excluded.n');
    addUp(
      ['0', ...SUMS.map((name) => marks[name])],
      'images_worked_marked',
      `${w.sql ? `${w.sql} and` : 'where'} (${MARKED_SQL})`,
      SUMS.map((name) => `${name} = ${name} + excluded.${name}`).join(', '),
    );
    let text = 0;
    const selected = q.by.map((name) => {
      if (name === WHAT_WORKED_MODEL) return 'g.model';
      const i = text++;
      return `coalesce(t${i}.value, '')`;
    });
    const rows = db
      .prepare(
        `with g as (
           select ${byModel ? `coalesce(f.model, '')` : `''`} as model, ${[...k, ''].join(', ')} sum(n) as n,
             ${SUMS.map((name) => `sum(${name}) as ${name}`).join(', ')}
           from what_worked w ${byModel ? 'left join folders f on f.id = w.f' : ''} group by ${['model', ...k].join(', ')})
         select ${selected.map((sql, i) => `${sql} as c${i}`).join(', ')}, sum(n), ${SUMS.map((name) => `sum(${name})`).join(', ')}
         from g ${k.map((key, i) => `left join part_texts t${i} on t${i}.id = g.${key}`).join(' ')}
         group by ${selected.map((_, i) => `c${i}`).join(', ')}`,
      )
      .raw()
      .all() as (string | number)[][];
    const [images, unparted] = db
      .prepare('select sum(n), sum(case when s = 0 then n else 0 end) from what_worked')
      .raw()
      .get() as [number | null, number | null];
    // Every variable of the parts present, in their templates' order (the first template first).
    const present = db
      .prepare('select distinct s from what_worked where s > 0 order by s')
      .pluck()
      .all() as number[];
    const names = [...new Set(present.flatMap((s) => shapes.get(s) ?? []))];
    const out: WhatWorkedRow[] = rows.map((r) => {
      const [count, picked, rejected, rated, starred, stars] = r.slice(q.by.length).map(Number) as number[];
      const interval = pickInterval(picked!, count!);
      return {
        values: Object.fromEntries(q.by.map((name, i) => [name, String(r[i])])),
        images: count!,
        picked: picked!,
        rejected: rejected!,
        unrated: count! - rated!,
        starred: starred!,
        meanStars: starred ? stars! / starred : null,
        pickInterval: interval,
        score: interval.low,
      };
    });
    const ranked = rankWhatWorked(out);
    return {
      variables: [...names, WHAT_WORKED_MODEL],
      rows: ranked.slice(0, q.limit),
      more: Math.max(0, ranked.length - q.limit),
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
