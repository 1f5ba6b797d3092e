import type { TeamMarks } from '../../../../src-shared/person';
import type { LibraryImage, ReviewMark } from '../../../../src-shared/library-view';
import type { CatalogDb } from './catalog-db';
import { teamView, type TeamEntry } from '../folders/team-marks';

/** The person whose marks this studio sets: an id made once per install, and their name. */
export interface Person {
  id: string;
  name: string;
}

/**
 * The team's marks of the rows a window shows, read from `team_marks` for those rows only (an
 * image nobody marked has no entry, and most have none), with the names people gave themselves.
 */
export function teamOfRows(db: CatalogDb, rowids: readonly number[], me: string): Map<number, TeamMarks> {
  const out = new Map<number, TeamMarks>();
  if (!rowids.length) return out;
  const rows = db
    .prepare(
      `select t.image, t.person, t.mark, t.stars, p.name from team_marks t
       left join people p on p.id = t.person where t.image in (${rowids.map(Number).join(',')})`,
    )
    .raw()
    .all() as [number, string, ReviewMark, number, string | null][];
  const entries = new Map<number, TeamEntry[]>();
  const names = new Map<string, string>();
  for (const [image, person, mark, stars, name] of rows) {
    entries.set(image, [...(entries.get(image) ?? []), { person, mark, stars }]);
    if (name) names.set(person, name);
  }
  for (const [image, list] of entries) {
    const view = teamView(list, me, (id) => names.get(id) ?? '');
    if (view) out.set(image, view);
  }
  return out;
}

/** Images of a window with their team's marks, where anyone else marked them. */
export function withTeam<T extends LibraryImage>(
  db: CatalogDb,
  rows: readonly (T & { row?: number })[],
  rowids: readonly number[],
  me: string,
): T[] {
  const team = teamOfRows(db, rowids, me);
  return rows.map((image, i) => {
    const marks = team.get(rowids[i]!);
    return marks ? { ...image, team: marks } : image;
  });
}

/** The people whose marks the library holds, this studio's own first, with how many images each marked. */
export function peopleOf(db: CatalogDb, me: { id: string; name: string }) {
  const rows = db
    .prepare(
      `select t.person, coalesce(p.name, ''), count(*) from team_marks t left join people p on p.id = t.person
       where t.person <> '' and t.mark is not null group by t.person`,
    )
    .raw()
    .all() as [string, string, number][];
  const mine = rows.find(([id]) => id === me.id);
  return [
    { id: me.id, name: me.name, me: true, marked: mine?.[2] ?? 0 },
    ...rows
      .filter(([id]) => id !== me.id)
      .map(([id, name, marked]) => ({ id, name, me: false, marked }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  ];
}
