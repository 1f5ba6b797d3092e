import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { reviewMarkSchema, type ReviewMark } from '../../../../src-shared/review-mark';
import { StudioError } from '../../../../src-shared/studio-error';
import { logCaughtUnlessMissing } from '../../log/studio-log';
import { fsyncDir, makeDir, writeJsonAtomic } from '../../storage/atomic-file';
import { damagedName, personIdOfFile, syncConflictOf } from './sync-conflicts';

/**
 * A batch folder's review marks, one file per person: `review/<personId>.json`, written only by that
 * person's studio, so two people culling one batch at once never write the same file. Every view
 * merges them when it reads. The folder's `review.json` from before people had names stays readable
 * (never written again): its marks count as one person's, "earlier" (`EARLIER`).
 *
 * Order within one person's file is its own counter (`seq`), never a clock compared across machines:
 * each entry carries the `seq` it was set at, and where two copies of one person's file disagree (a
 * sync tool's conflict copy, a copy carried over by "Download again") the higher `seq` wins.
 */
export const REVIEW_DIR = 'review';
export const LEGACY_REVIEW_FILE = 'review.json';
export const PERSON_REVIEW_FORMAT = 'batch-image-studio.review/2';
/** The person marks made before people had names belong to. */
export const EARLIER = '';

/** A person id as a file name can hold it. */
/** A copy of a person's file that "Download again" carried over from the folder it replaced. */
const CARRIED = /^(.+)\.carried-[0-9a-f]{8}\.json$/;

export interface MarkEntry {
  mark: ReviewMark;
  stars: number;
  seq: number;
}

const entrySchema = z.object({
  mark: reviewMarkSchema.default(null),
  stars: z.number().int().min(0).max(5).default(0),
  seq: z.number().int().min(0).default(0),
});
const personFileSchema = z.object({
  format: z.literal(PERSON_REVIEW_FORMAT),
  person: z.object({ id: z.string(), name: z.string().max(200) }),
  images: z.record(z.string(), entrySchema),
});
const legacySchema = z.object({
  images: z.record(z.string(), entrySchema.omit({ seq: true }).extend({ seq: z.literal(0).default(0) })),
});

/** One person's marks in one folder. */
export interface PersonMarks {
  name: string;
  images: Map<string, MarkEntry>;
}

/** A person's file that could not be used: only their marks are lost, and the folder says so. */
export interface PersonFileProblem {
  file: string;
  why: 'damaged' | 'newer' | 'foreign';
}

export interface FolderMarks {
  /** By person id; `EARLIER` for the folder's review.json. */
  people: Map<string, PersonMarks>;
  problems: PersonFileProblem[];
  /** The folder's review.json was there but could not be read. */
  legacyDamaged: boolean;
}

type Parsed = { ok: true; id: string; marks: PersonMarks } | { ok: false; why: PersonFileProblem['why'] };

function parsePerson(text: string, id: string): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, why: 'damaged' };
  }
  const format = (json as { format?: unknown } | null)?.format;
  // A later version's format: its marks are not guessed at, and the file is left as it is.
  if (typeof format === 'string' && /^batch-image-studio\.review\/(\d+)$/.test(format)) {
    const version = Number(format.split('/')[1]);
    if (version > 2) return { ok: false, why: 'newer' };
  }
  const parsed = personFileSchema.safeParse(json);
  if (!parsed.success) return { ok: false, why: 'damaged' };
  // A file whose name and content name different people was not written by a studio.
  if (parsed.data.person.id !== id) return { ok: false, why: 'foreign' };
  return {
    ok: true,
    id,
    marks: { name: parsed.data.person.name, images: new Map(Object.entries(parsed.data.images)) },
  };
}

/** Entries of `other` join `into`; where both have an image, the higher `seq` wins, a tie keeps `into`'s. */
export function mergeEntries(into: Map<string, MarkEntry>, other: Map<string, MarkEntry>): void {
  for (const [file, entry] of other) {
    const mine = into.get(file);
    if (!mine || entry.seq > mine.seq) into.set(file, entry);
  }
}

/** The person file (or review.json) a name in `review/` is a copy of, and whether it is one. */
function personOf(name: string, names: ReadonlySet<string>): { id: string; copy: boolean } | undefined {
  const carried = CARRIED.exec(name);
  const conflict = carried ? undefined : syncConflictOf(name, names);
  const original = carried ? `${carried[1]}.json` : (conflict?.original ?? name);
  const id = personIdOfFile(original);
  return id ? { id, copy: original !== name } : undefined;
}

/**
 * Every person's marks in a batch folder, conflict and carried copies merged in. A person file that
 * cannot be used costs that person's marks only.
 */
export async function readFolderMarks(dir: string): Promise<FolderMarks> {
  const people = new Map<string, PersonMarks>();
  const problems: PersonFileProblem[] = [];
  let legacyDamaged = false;
  const add = (id: string, marks: PersonMarks, copy: boolean) => {
    const known = people.get(id);
    if (!known) people.set(id, marks);
    else if (copy) mergeEntries(known.images, marks.images);
    else {
      // The original's name wins; its entries are merged like any copy's.
      mergeEntries(marks.images, known.images);
      people.set(id, marks);
    }
  };
  // review.json, and sync tools' copies of it: marks from before people had names.
  const top = await readdir(dir).catch(() => [] as string[]);
  const topNames = new Set(top);
  for (const name of top) {
    const copy =
      name !== LEGACY_REVIEW_FILE && syncConflictOf(name, topNames)?.original === LEGACY_REVIEW_FILE;
    if (name !== LEGACY_REVIEW_FILE && !copy) continue;
    try {
      const parsed = legacySchema.safeParse(JSON.parse(await readFile(join(dir, name), 'utf8')));
      if (!parsed.success) throw new SyntaxError('not a review file');
      add(EARLIER, { name: '', images: new Map(Object.entries(parsed.data.images)) }, copy);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      if (!copy) legacyDamaged = true;
    }
  }
  const names = await readdir(join(dir, REVIEW_DIR)).catch((err: unknown) => {
    logCaughtUnlessMissing(`review folder of ${dir}`, err);
    return [] as string[];
  });
  const present = new Set(names);
  for (const name of names) {
    const of = personOf(name, present);
    if (!of) continue;
    let text: string;
    try {
      text = await readFile(join(dir, REVIEW_DIR, name), 'utf8');
    } catch (err) {
      logCaughtUnlessMissing('person review read', err);
      continue;
    }
    const parsed = parsePerson(text, of.id);
    if (parsed.ok) add(of.id, parsed.marks, of.copy);
    else if (!of.copy) problems.push({ file: `${REVIEW_DIR}/${name}`, why: parsed.why });
  }
  return { people, problems, legacyDamaged };
}

/** What an image's marks are for one person: theirs where they set one, else the folder's earlier marks. */
export function ownEntry(marks: FolderMarks, personId: string, file: string): MarkEntry | undefined {
  return marks.people.get(personId)?.images.get(file) ?? marks.people.get(EARLIER)?.images.get(file);
}

/**
 * Writes this person's marks in one folder: their file is read again with its copies (a sync
 * tool's conflict copies, carried copies), `change` applied to each of `files` with `nextSeq()`, and the whole
 * written atomically and durably; then the copies it folded in are removed (the person's studio is
 * the one writer of their marks, copies included). Answers the person's entries after the change.
 */
export async function writePersonMarks(
  dir: string,
  person: { id: string; name: string },
  change: (file: string, now: MarkEntry | undefined) => { mark: ReviewMark; stars: number },
  files: readonly string[],
  nextSeq: (seen: number) => number,
): Promise<Map<string, MarkEntry>> {
  const reviewDir = join(dir, REVIEW_DIR);
  // Never the batch folder made again: one moved aside by "Download again" (or deleted) is not
  // recreated as a folder of marks alone.
  if (!existsSync(join(dir, 'batch.json')))
    throw new StudioError({
      code: 'STUDIO_IMAGE_NOT_FOUND',
      message: 'That image is no longer in the library.',
    });
  const names = await readdir(reviewDir).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [] as string[];
    throw err;
  });
  const present = new Set(names);
  const own = new Map<string, MarkEntry>();
  const copies: string[] = [];
  for (const name of names) {
    const of = personOf(name, present);
    if (of?.id !== person.id) continue;
    let text: string;
    try {
      text = await readFile(join(reviewDir, name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      // A file that cannot be read now (a share's hiccup) is not a file with no marks: the write
      // waits for the next key rather than replacing every mark with one.
      throw err;
    }
    const parsed = parsePerson(text, person.id);
    if (parsed.ok) {
      mergeEntries(own, parsed.marks.images);
      if (of.copy) copies.push(name);
    } else if (parsed.why === 'newer') {
      if (!of.copy)
        throw new StudioError({
          code: 'STUDIO_MARKS_NEWER',
          message: `${REVIEW_DIR}/${name} was written by a newer version of the studio: update to mark here.`,
        });
    } else if (!of.copy) {
      // A damaged file of one's own is kept beside, for whoever wants to look, and replaced.
      await rename(join(reviewDir, name), join(reviewDir, damagedName(name)));
    }
  }
  let seen = 0;
  for (const entry of own.values()) seen = Math.max(seen, entry.seq);
  const seq = nextSeq(seen);
  // A change to the mark alone keeps the stars (and the other way round) as this file has them: the
  // file is the truth, where a catalog may not yet have read the person's last change.
  for (const file of files) own.set(file, { ...change(file, own.get(file)), seq });
  // Only the review folder is made, never a parent: the batch folder is there (checked above).
  await mkdir(reviewDir).then(
    () => fsyncDir(dir),
    (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    },
  );
  await writeJsonAtomic(join(reviewDir, `${person.id}.json`), {
    format: PERSON_REVIEW_FORMAT,
    person,
    images: Object.fromEntries([...own].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  });
  if (copies.length) {
    await Promise.all(copies.map((name) => rm(join(reviewDir, name), { force: true })));
    await fsyncDir(reviewDir);
  }
  return own;
}

/**
 * "Download again": the marks of the folder moved aside (`from`) join the new folder (`into`). A
 * person file the new folder lacks is moved in whole; one it has too (the person marked while the
 * new folder was published) goes in beside it as a carried copy, merged on read and folded in by
 * its person's studio at their next mark, so no file gets a second writer. review.json: the new
 * folder's marks win where both have one, as they were set after every mark of the old.
 */
export async function carryMarks(from: string, into: string): Promise<void> {
  const names = await readdir(join(from, REVIEW_DIR)).catch(() => [] as string[]);
  if (names.length) {
    await makeDir(join(into, REVIEW_DIR));
    const there = new Set(await readdir(join(into, REVIEW_DIR)).catch(() => [] as string[]));
    const known = new Set(names);
    for (const name of names) {
      const id = personOf(name, known)?.id;
      // A copy is named by the person it is of, so a copy of a copy is still found as theirs.
      const tag = randomBytes(4).toString('hex');
      const target = !there.has(name) ? name : id ? `${id}.carried-${tag}.json` : `${name}.carried-${tag}`;
      await rename(join(from, REVIEW_DIR, name), join(into, REVIEW_DIR, target));
    }
    await fsyncDir(join(into, REVIEW_DIR));
  }
  await carryLegacy(from, into);
}

type LegacyImages = Record<string, { mark: ReviewMark; stars: number }>;

async function readLegacy(folder: string): Promise<{ format?: string; images: LegacyImages } | undefined> {
  try {
    const parsed = JSON.parse(await readFile(join(folder, LEGACY_REVIEW_FILE), 'utf8')) as {
      format?: string;
      images?: LegacyImages;
    };
    return parsed && typeof parsed.images === 'object' ? { ...parsed, images: parsed.images } : undefined;
  } catch (err) {
    logCaughtUnlessMissing('review.json read', err);
    return undefined;
  }
}

async function carryLegacy(from: string, into: string): Promise<void> {
  const old = await readLegacy(from);
  if (!old) return;
  const current = await readLegacy(into);
  const missing = Object.keys(old.images).filter((file) => !current?.images[file]);
  if (current && missing.length === 0) return;
  await writeJsonAtomic(join(into, LEGACY_REVIEW_FILE), {
    ...old,
    ...current,
    images: { ...old.images, ...current?.images },
  });
}
