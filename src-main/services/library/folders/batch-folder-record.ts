import { existsSync, statSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { runIdOf } from '../../../../src-shared/batch-run';
import { type LibraryOverview, type ReviewMark } from '../../../../src-shared/library-view';
import { logCaughtUnlessMissing } from '../../log/studio-log';
import { BATCH_FILE, readBatchJson } from './batch-json';
import { arrivingUntil } from './folder-arriving';
import { LEGACY_REVIEW_FILE, ownEntry, readFolderMarks, REVIEW_DIR, type FolderMarks } from './review-files';

/** One image of a batch folder, as the catalog stores it. `ord` keeps the folder's own order. */
export interface FolderImage {
  file: string;
  ord: number;
  batchId: string;
  taskName: string;
  model: string;
  customId: string;
  prompt: string;
  rowIndex: number | null;
  createdAt: number;
  mime: string;
  bytes: number;
  /** This studio's person's own mark: theirs where they set one, else the folder's earlier one. */
  mark: ReviewMark;
  stars: number;
  /** Every person's entry for it, the earlier review.json's too (team-marks.ts says what counts). */
  team: { person: string; mark: ReviewMark; stars: number }[];
  /** Library images this one was made from (its references, or its realtime inputs): lineage. */
  sources: string[];
  /** The run (one draft on several models) its batch was one model of. */
  runId: string | null;
  /** Its perceptual hash (dHash, 16 hex digits) from the folder's hashes.json; null until made. */
  hash: string | null;
}

export type FolderProblem = Omit<LibraryOverview['problems'][number], 'folder'>;

export interface FolderRecord {
  images: FolderImage[];
  problem?: FolderProblem;
  /** The names of the people whose marks the folder holds, by id. */
  people: Map<string, string>;
  /** Its files are still arriving (a copy or a sync under way) until then: read again by that time. */
  arrivingUntil?: number;
}

/**
 * What changes when a folder changes: its record, its marks and its images folder (a file added
 * or removed changes the folder's time). Three stats a folder: a start checks 1,250 folders of a
 * 250,000-image library in a few milliseconds instead of reading their records.
 */
export async function folderSignature(dir: string): Promise<string> {
  const parts = await Promise.all(SIGNED.map((name) => fileSignature(join(dir, name))));
  return parts.join('|');
}

/**
 * The same, stat by stat on this thread: checking every folder of a library at once. At 5,000
 * folders (a million images) the 20,000 stats take 50-70 ms this way, against 400-700 ms as
 * promises (each a trip through the thread pool, a missing review.json an exception); the caller
 * yields between slices of folders.
 */
export function folderSignatureNow(dir: string): string {
  return SIGNED.map((name) => {
    try {
      const s = statSync(join(dir, name), { throwIfNoEntry: false });
      return s ? `${s.mtimeMs}:${s.size}` : '-';
    } catch {
      return '-';
    }
  }).join('|');
}

/** A file's time and size, or `-` when it is not there. */
export async function fileSignature(path: string): Promise<string> {
  try {
    const s = await stat(path);
    return `${s.mtimeMs}:${s.size}`;
  } catch {
    return '-';
  }
}

/**
 * Why a file of a batch folder cannot be used, in words. Never the parser's own text ("Expected
 * double-quoted property name…"): it means nothing to the person who has to fix the folder.
 */
function unreadable(file: string, err: unknown): FolderProblem {
  if (err instanceof SyntaxError)
    return { reason: 'FILE_NOT_JSON', file, message: `${file} is damaged (not valid JSON)` };
  if (err instanceof z.ZodError)
    return { reason: 'FILE_NOT_BATCH', file, message: `${file} does not describe a batch` };
  return { reason: 'FILE_UNREADABLE', file, message: `${file} cannot be read` };
}

/**
 * The folder's perceptual hashes, by image file: a cache each studio keeps in its own data folder
 * (library-home.ts), and rebuilds when it is missing or damaged. Studios before shared libraries
 * wrote it beside the images as `hashes.json`: still read, never written.
 */
export const HASHES_FILE = 'hashes.json';
export const HASHES_FORMAT = 'batch-image-studio.hashes/1';
const hashesSchema = z.object({
  format: z.literal(HASHES_FORMAT),
  images: z.record(z.string(), z.string().regex(/^[0-9a-f]{16}$/)),
});

/**
 * The entries whose time and size say a folder changed: the `review` folder's time changes with
 * every person's marks renamed into it (and their sync tools' copies).
 */
const SIGNED = [BATCH_FILE, LEGACY_REVIEW_FILE, REVIEW_DIR, 'images', HASHES_FILE];

async function readHashFile(file: string): Promise<Record<string, string>> {
  try {
    const parsed = hashesSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data.images : {};
  } catch {
    // Missing or damaged: the hashes are made again, nothing is lost.
    return {};
  }
}

/** A folder's hashes: the legacy `hashes.json` in it, then this studio's own (`ownHashes`), which win. */
export async function readHashes(dir: string, ownHashes?: string): Promise<Record<string, string>> {
  const legacy = await readHashFile(join(dir, HASHES_FILE));
  return ownHashes ? { ...legacy, ...(await readHashFile(ownHashes)) } : legacy;
}

/**
 * A batch folder read as the library shows it: the images that are really there, with their
 * prompts and marks. A corrupt or half-copied folder is described, never thrown.
 */
export async function readBatchFolder(dir: string, me: string, ownHashes?: string): Promise<FolderRecord> {
  const people = new Map<string, string>();
  try {
    if (!existsSync(join(dir, BATCH_FILE))) {
      // A sync tool may bring the images before the record: while files still arrive, that is not damage.
      const arriving = await arrivingUntil(dir);
      return {
        people,
        images: [],
        arrivingUntil: arriving,
        problem: arriving
          ? { reason: 'ARRIVING', file: BATCH_FILE, message: 'still arriving: no batch.json yet' }
          : {
              reason: 'NO_BATCH_FILE',
              file: BATCH_FILE,
              message: 'no batch.json: not a batch folder, or only half copied',
            },
      };
    }
    const record = await readBatchJson(dir);
    const marks = await readFolderMarks(dir);
    for (const [id, person] of marks.people) people.set(id, person.name);
    // A damaged marks file costs its marks, not the images: they are shown, and the folder reported.
    const reviewProblem = marksProblem(marks);
    const present = new Set(
      (
        await readdir(join(dir, 'images')).catch((err: unknown) => {
          // No images folder is a batch with no images yet; a folder that cannot be read (EACCES,
          // EIO) shows its images as missing too, but the log says why.
          logCaughtUnlessMissing(`library: list images of ${dir}`, err);
          return [] as string[];
        })
      ).map((f) => `images/${f}`),
    );
    const missing = record.images.filter((i) => !present.has(i.file)).length;
    const hashes = await readHashes(dir, ownHashes);
    // A row's references (its own and the draft's shared ones) that came from library images.
    const draft = record.draft;
    const sourceOf = new Map((draft?.references ?? []).map((r) => [r.id, r.sourceImageId]));
    const rowSources = (row: number | null): string[] => {
      if (!draft || row === null) return [];
      const ids = [...(draft.items[row]?.referenceIds ?? []), ...draft.sharedReferenceIds];
      return [...new Set(ids.map((id) => sourceOf.get(id)).filter((s): s is string => !!s))];
    };
    const images = record.images
      .map((i, ord) => ({ i, ord }))
      .filter(({ i }) => present.has(i.file))
      .map(({ i, ord }) => ({
        file: i.file,
        ord,
        batchId: record.batch.id,
        taskName: record.batch.task_name,
        model: record.batch.model || record.draft?.model || '',
        customId: i.customId,
        prompt: i.prompt,
        rowIndex: i.rowIndex,
        createdAt: Math.floor(record.batch.created_at),
        mime: i.mime,
        bytes: i.bytes,
        mark: ownEntry(marks, me, i.file)?.mark ?? null,
        stars: ownEntry(marks, me, i.file)?.stars ?? 0,
        team: teamOf(marks, i.file),
        sources: i.sources ?? rowSources(i.rowIndex),
        runId: runIdOf(record.batch.metadata) ?? runIdOf(record.draft?.metadata) ?? null,
        hash: hashes[i.file] ?? null,
      }));
    if (!missing) return { people, images, problem: reviewProblem };
    // Images still coming (a copy, a sync): shown as arriving, and read again until whole.
    const arriving = await arrivingUntil(dir);
    const total = record.images.length;
    return {
      people,
      images,
      arrivingUntil: arriving,
      problem: arriving
        ? { reason: 'ARRIVING', missing, total, message: `still arriving: ${missing} of ${total} images` }
        : {
            reason: 'IMAGES_MISSING',
            missing,
            total,
            message: `${missing} of ${total} images are missing (half copied?)`,
          },
    };
  } catch (err) {
    return { people, images: [], problem: unreadable(BATCH_FILE, err) };
  }
}

/** Every entry any person (and the earlier review.json) has for one image, as team-marks.ts reads them. */
function teamOf(marks: FolderMarks, file: string): FolderImage['team'] {
  const team: FolderImage['team'] = [];
  for (const [person, { images }] of marks.people) {
    const entry = images.get(file);
    if (entry) team.push({ person, mark: entry.mark, stars: entry.stars });
  }
  return team;
}

/** The folder's problem with its marks, in words: the earlier review.json, or one person's file. */
function marksProblem(marks: FolderMarks): FolderProblem | undefined {
  if (marks.legacyDamaged)
    return {
      reason: 'REVIEW_DAMAGED',
      file: LEGACY_REVIEW_FILE,
      message: `${LEGACY_REVIEW_FILE} is damaged: picks and stars are not shown`,
    };
  const first = marks.problems[0];
  if (!first) return undefined;
  const why = {
    damaged: 'is damaged',
    newer: 'was written by a newer version of the studio',
    foreign: 'was not written by the studio',
  }[first.why];
  return {
    reason: 'PERSON_MARKS_UNREADABLE',
    file: first.file,
    message: `${first.file} ${why}: that person's picks and stars are not shown`,
  };
}
