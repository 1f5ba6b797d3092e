import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Entry = { mark: string | null; stars: number };

/** A person's marks file, not a temporary file being renamed into place. */
const PERSON_FILE = /^[A-Za-z0-9_-]+\.json$/;

/**
 * A person's marks as their file in a batch folder holds them (`review/<id>.json`), read straight
 * from disk as another tool would: `personId` omitted, the folder's one person file.
 */
export function personMarksOnDisk(
  folder: string,
  personId?: string,
): { format: string; person: { id: string; name: string }; images: Record<string, Entry> } {
  const dir = join(folder, 'review');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => PERSON_FILE.test(f)) : [];
  const file = personId ? `${personId}.json` : files.length === 1 ? files[0] : undefined;
  if (!file) throw new Error(`no single person's marks in ${dir}: ${files.join(', ') || 'none'}`);
  const parsed = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  // The order counter is the writer's own business: what a person sees is the mark and the stars.
  const images = Object.fromEntries(
    Object.entries(parsed.images as Record<string, Entry>).map(([k, v]) => [
      k,
      { mark: v.mark, stars: v.stars },
    ]),
  );
  return { ...parsed, images };
}

/**
 * The marks in a batch folder of a library with one person, by image file; none yet is none. The
 * review folder is made before the person's file is renamed into it, so an empty one is none yet.
 */
export function soleMarksOnDisk(folder: string): Record<string, Entry> {
  const dir = join(folder, 'review');
  const people = existsSync(dir) ? readdirSync(dir).filter((f) => PERSON_FILE.test(f)) : [];
  return people.length ? personMarksOnDisk(folder).images : {};
}
