import type { CatalogDb } from './catalog-db';
import type { ImageParts } from '../folders/prompt-parts-of';

/** How many of a combination's values an image row carries itself (images.v0..v5). */
export const PART_SLOTS = 6;

/** An image's parts columns: parts, shape, then v0..v5 (catalog-db.ts). */
export type PartsColumns = [number | null, number | null, ...(number | null)[]];

/** The columns of an image without parts. */
export const NO_PARTS: PartsColumns = [null, null, ...Array<null>(PART_SLOTS).fill(null)];

/**
 * The parts columns of a template and values, made on first use: the combination (prompt_parts,
 * part_values: a draft row's images, one a model, one an output, share it), the list of its
 * variables' names (part_shapes) and each value's number (part_texts). Called inside the folder's
 * transaction; a combination seen before in the same folder is not looked up again.
 */
export function partsWriter(db: CatalogDb): (parts: ImageParts) => PartsColumns {
  const find = db.prepare('select id from prompt_parts where key = ?').raw();
  const add = db.prepare('insert into prompt_parts (key, template, vals) values (?, ?, ?)');
  const value = db.prepare('insert or ignore into part_values (combo, name, value, ord) values (?, ?, ?, ?)');
  const findShape = db.prepare('select id from part_shapes where names = ?').raw();
  const addShape = db.prepare('insert into part_shapes (names) values (?)');
  const findText = db.prepare('select id from part_texts where name = ? and value = ?').raw();
  const addText = db.prepare('insert into part_texts (name, value) values (?, ?)');
  const known = new Map<string, PartsColumns>();
  // Names and values repeat across a folder's combinations (a subject in every row): looked up once.
  const shapes = new Map<string, number>();
  const texts = new Map<string, number>();
  const idOf = (row: unknown) => (row as [number] | undefined)?.[0];
  const once = (cache: Map<string, number>, key: string, find: () => unknown, add: () => number) => {
    let id = cache.get(key);
    if (id === undefined) cache.set(key, (id = idOf(find()) ?? add()));
    return id;
  };
  return (parts) => {
    const entries = Object.entries(parts.values);
    const vals = JSON.stringify(entries);
    const key = JSON.stringify([parts.template ?? null, vals]);
    const cached = known.get(key);
    if (cached) return cached;
    let id = idOf(find.get(key));
    if (id === undefined) {
      id = Number(add.run(key, parts.template ?? null, vals).lastInsertRowid);
      entries.forEach(([name, v], ord) => value.run(id, name, v, ord));
    }
    const names = JSON.stringify(entries.map(([name]) => name));
    const shape = once(
      shapes,
      names,
      () => findShape.get(names),
      () => Number(addShape.run(names).lastInsertRowid),
    );
    // Every value gets its number, the ones past the sixth too: a variable found there is grouped
    // through part_values (partKey), by the same numbers.
    const ids = entries.map(([name, v]) =>
      once(
        texts,
        JSON.stringify([name, v]),
        () => findText.get(name, v),
        () => Number(addText.run(name, v).lastInsertRowid),
      ),
    );
    const columns: PartsColumns = [
      id,
      shape,
      ...Array.from({ length: PART_SLOTS }, (_, i) => ids[i] ?? null),
    ];
    known.set(key, columns);
    return columns;
  };
}

/** The catalog's variable lists: each shape's id and names. */
export function partShapes(db: CatalogDb): Map<number, string[]> {
  const rows = db.prepare('select id, names from part_shapes').raw().all() as [number, string][];
  return new Map(rows.map(([id, names]) => [id, JSON.parse(names) as string[]]));
}

/**
 * A variable's value number for the image being read, as SQL over its index entry: the slot the
 * variable has in the image's shape, 0 where the shape has no such variable (or the image no
 * parts). A variable past the sixth is found through the image's combination instead (slower, and
 * rare: a template of seven variables and more). Its parameters go with it, in order.
 */
export function partKey(shapes: Map<number, string[]>, name: string): { sql: string; params: string[] } {
  const bySlot = new Map<number, number[]>();
  for (const [id, names] of shapes) {
    const slot = names.indexOf(name);
    if (slot >= 0) bySlot.set(slot, [...(bySlot.get(slot) ?? []), id]);
  }
  if (!bySlot.size) return { sql: '0', params: [] };
  const params: string[] = [];
  const arms = [...bySlot].map(([slot, ids]) => {
    if (slot < PART_SLOTS) return `when images.shape in (${ids.join(',')}) then images.v${slot}`;
    params.push(name);
    return `when images.shape in (${ids.join(',')}) then (select t.id from part_values pv
      join part_texts t on t.name = pv.name and t.value = pv.value where pv.combo = images.parts and pv.name = ?)`;
  });
  return { sql: `coalesce(case ${arms.join(' ')} end, 0)`, params };
}

/**
 * The highest slot any of these variables has in any shape, or undefined when one is past the
 * sixth: grouping by the index's own order up to that slot needs no sort.
 */
export function lastSlot(shapes: Map<number, string[]>, names: string[]): number | undefined {
  let last = -1;
  for (const list of shapes.values())
    for (const name of names) {
      const slot = list.indexOf(name);
      if (slot >= PART_SLOTS) return undefined;
      last = Math.max(last, slot);
    }
  return last;
}

/**
 * Whether grouping by the index's order up to `last` keeps the groups few: the other variables
 * before it (in any shape) must have few values between them. A prompt's own words split into
 * parts can make every image a value of its own; grouping over them would add up each image alone.
 */
export function fewBefore(
  db: CatalogDb,
  shapes: Map<number, string[]>,
  names: string[],
  last: number,
): boolean {
  const LIMIT = 256;
  const counted = new Map<string, number>();
  const values = (name: string) => {
    let n = counted.get(name);
    if (n === undefined) {
      n = Number(
        (
          db
            .prepare(`select count(*) from (select 1 from part_texts where name = ? limit ${LIMIT + 1})`)
            .raw()
            .get(name) as [number]
        )[0],
      );
      counted.set(name, n);
    }
    return n;
  };
  for (const list of shapes.values()) {
    let product = 1;
    for (const name of list.slice(0, last + 1)) if (!names.includes(name)) product *= values(name);
    if (product > LIMIT) return false;
  }
  return true;
}
