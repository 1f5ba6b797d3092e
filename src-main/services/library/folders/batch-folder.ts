import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, link, readFile, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { WireBatch } from '../../gateway/batch-wire';
import { fsyncDir, fsyncTree, makeDir, writeJsonAtomic } from '../../storage/atomic-file';
import { BATCH_FILE, readBatchJson, writeBatchJson, type BatchJson, type BatchJsonInput } from './batch-json';
import { COLLECTIONS_FILE } from './boards';
import { safeName } from '../../storage/file-names';
import { isSyncTemporary } from './sync-conflicts';
import { carryMarks, LEGACY_REVIEW_FILE as REVIEW_FILE, REVIEW_DIR } from './review-files';
import { logCaught, logCaughtUnlessMissing } from '../../log/studio-log';

/**
 * Where studios before shared libraries staged their downloads (one area for everyone): only a
 * folder a replacement moved aside there is still recovered (studio-staging.ts).
 */
export const LEGACY_STAGING_DIR = '.studio-staging';
/** `2026-11-22 Autumn mugs imgbatch_…`: sorts by date, says what it is, and is unique by id. */
export function batchFolderName(batch: Pick<WireBatch, 'id' | 'task_name' | 'created_at'>): string {
  const day = new Date((batch.created_at || Date.now() / 1000) * 1000).toISOString().slice(0, 10);
  const name = safeName(batch.task_name || 'batch', 60);
  return `${day} ${name} ${safeName(batch.id, 80)}`;
}

/**
 * A new folder for one download in a studio's own staging area (studio-staging.ts), which lives
 * inside the library root so the final move is one rename on one file system.
 */
export async function newStagingDir(area: string, batchId: string): Promise<string> {
  const dir = join(area, `${safeName(batchId, 80)}-${randomBytes(4).toString('hex')}`);
  await makeDir(join(dir, 'images'));
  return dir;
}

/**
 * Moves a complete staging folder into the library in one rename. A folder already there under
 * that name (another studio of the team published it meanwhile, or a sync tool brought it) is
 * kept and the download dropped, unless `replace` (the user's "Download again"): then it is
 * replaced whole, keeping its review marks. Answers whether this download is the folder now.
 *
 * The marks are not copied ahead: a mark set between such a copy and the rename would land in the
 * old folder only and be reverted by the stale copy. Instead the new folder arrives without a
 * review.json, so whatever review.json it has at merge time was written after the rename (the
 * newest marks), and the old folder's marks (every mark up to the rename) fill in the rest.
 *
 * The old folder is moved aside into the same staging area (the studio's own), beside an intent
 * written before anything moves: a kill between the renames leaves it there, and the studio's
 * next start puts it back or gives its marks to the new one (recoverReplaced).
 */
export async function publishBatchFolder(
  libraryRoot: string,
  staging: string,
  folderName: string,
  file: BatchJsonInput,
  { replace = true }: { replace?: boolean } = {},
): Promise<boolean> {
  const target = join(libraryRoot, folderName);
  const area = dirname(staging);
  if (!replace && existsSync(target)) {
    await rm(staging, { recursive: true, force: true });
    return false;
  }
  await rm(join(staging, REVIEW_FILE), { force: true });
  await rm(join(staging, REVIEW_DIR), { recursive: true, force: true });
  await writeBatchJson(staging, file);
  // Every image, reference and record on disk before the folder's name is: a power cut after the
  // rename must not leave a library folder of empty files.
  await fsyncTree(staging);
  await makeDir(libraryRoot);
  if (replace && existsSync(target)) {
    const tag = randomBytes(4).toString('hex');
    const old = join(area, `${REPLACED_PREFIX}${tag}`);
    const intent = join(area, `${INTENT_PREFIX}${tag}.json`);
    await writeJsonAtomic(intent, { target: folderName, old: `${REPLACED_PREFIX}${tag}` });
    await rename(target, old);
    try {
      await rename(staging, target);
    } catch (err) {
      // Something took the name meanwhile (a mark of another studio made the folder again, an
      // antivirus holding a new file): the old folder goes back where it was, whole.
      await rename(old, target).catch((back: unknown) => logCaught('replaced folder put back', back));
      await rm(intent, { force: true });
      throw err;
    }
    await fsyncDir(libraryRoot);
    // Marks set while the new folder was made are in the old one only.
    await mergeReview(old, target);
    await rm(old, { recursive: true, force: true });
    await rm(intent, { force: true });
  } else {
    try {
      await rename(staging, target);
    } catch (err) {
      // Published by another studio between the look and the rename: a folder is never renamed
      // over one that holds files, so theirs stays, and this download is dropped.
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM') || !existsSync(target)) throw err;
      await rm(staging, { recursive: true, force: true });
      return false;
    }
  }
  await fsyncDir(libraryRoot);
  await fsyncDir(area);
  return true;
}

const REPLACED_PREFIX = 'replaced-';
const INTENT_PREFIX = 'replace-';
/** Marks travel with "Download again" as review-files.ts says: no person's file is written over. */
const mergeReview = carryMarks;

/** write-file-atomic's temporary files (`name.<hex>`) and `*.tmp` ones: left only by a kill. */
const ATOMIC_LEFTOVER = /(\.json\.[0-9a-f]{6,}|\.tmp)$/;

/**
 * Removes what a kill left half-written in one folder; the files themselves are whole. `only`
 * limits it to the temporaries of the named files, for a folder that also holds the user's own
 * files (the library root, where only collections.json is the studio's).
 */
export async function removeWriteLeftovers(dir: string, only?: readonly string[]): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    logCaughtUnlessMissing('write leftovers listing', err);
    return 0;
  }
  // A sync tool's file still arriving (`.syncthing.x.png.tmp`) is not the studio's to remove.
  const leftovers = names.filter(
    (n) =>
      ATOMIC_LEFTOVER.test(n) &&
      !isSyncTemporary(n) &&
      (!only || only.some((file) => n.startsWith(`${file}.`))),
  );
  await Promise.all(leftovers.map((n) => rm(join(dir, n), { force: true })));
  return leftovers.length;
}

/**
 * Start-up repair of a staging area after a kill: a folder a replacement moved aside goes back
 * under its name when the new one never arrived, or gives its review marks to the new one and
 * then goes. One that can be neither (no intent and no readable record, a merge that failed) is
 * left where it is: a folder is never deleted before its marks are elsewhere.
 */
export async function recoverReplaced(
  libraryRoot: string,
  area: string,
): Promise<{ restored: string[]; kept: string[] }> {
  const restored: string[] = [];
  const kept: string[] = [];
  let names: string[] = [];
  try {
    names = await readdir(area);
  } catch (err) {
    logCaughtUnlessMissing('staging listing', err);
    names = [];
  }
  const placed = new Map<string, { target: string; intent: string }>();
  for (const name of names.filter((n) => n.startsWith(INTENT_PREFIX) && n.endsWith('.json'))) {
    try {
      const intent = JSON.parse(await readFile(join(area, name), 'utf8')) as { target: string; old: string };
      if (typeof intent.target === 'string' && typeof intent.old === 'string')
        placed.set(basename(intent.old), { target: basename(intent.target), intent: name });
    } catch (err) {
      // An intent cut short was written before its rename: nothing moved yet.
      logCaught('replace intent read', err);
    }
  }
  for (const name of names.filter((n) => n.startsWith(REPLACED_PREFIX))) {
    const old = join(area, name);
    let targetName = placed.get(name)?.target;
    try {
      // Moved aside without an intent (an older studio): the record inside names it.
      targetName ??= batchFolderName((await readBatchJson(old)).batch);
      const target = join(libraryRoot, targetName);
      if (!existsSync(target)) {
        await rename(old, target);
        await fsyncDir(libraryRoot);
        restored.push(targetName);
      } else if (!existsSync(join(target, BATCH_FILE))) {
        // The name holds no batch (only marks someone wrote into it): its marks join the old
        // folder, which goes back whole. Never the images deleted for a folder of marks.
        await mergeReview(target, old);
        await rm(target, { recursive: true, force: true });
        await rename(old, target);
        await fsyncDir(libraryRoot);
        restored.push(targetName);
      } else {
        await mergeReview(old, target);
        await rm(old, { recursive: true, force: true });
      }
      const intent = placed.get(name)?.intent;
      if (intent) await rm(join(area, intent), { force: true });
    } catch (err) {
      logCaught(`batch folder moved aside (${name}): kept in staging`, err);
      kept.push(name);
    }
  }
  return { restored, kept };
}

/**
 * Removes what a kill left half-written in the library's batch folders and at its root
 * (collections.json's temporaries): the files themselves are whole.
 */
export async function removeLibraryLeftovers(libraryRoot: string): Promise<void> {
  let folders: string[] = [];
  try {
    folders = (await readdir(libraryRoot, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch (err) {
    logCaughtUnlessMissing('library folder listing', err);
    folders = [];
  }
  for (const folder of folders) await removeWriteLeftovers(join(libraryRoot, folder));
  await removeWriteLeftovers(libraryRoot, [COLLECTIONS_FILE]);
}

/** A library folder's record with the images it lists that are no longer on disk. */
export interface FolderContents {
  record: BatchJson;
  missing: BatchJson['images'];
}

/**
 * What a batch folder holds, against its own record: `undefined` when the folder or its record is
 * not there or cannot be read (then only a whole new download can make it right).
 */
export async function folderContents(
  libraryRoot: string,
  folderName: string,
): Promise<FolderContents | undefined> {
  const dir = join(libraryRoot, folderName);
  let record: BatchJson;
  try {
    record = await readBatchJson(dir);
  } catch (err) {
    logCaughtUnlessMissing('batch folder record read', err);
    return undefined;
  }
  let present: Set<string>;
  try {
    present = new Set((await readdir(join(dir, 'images'))).map((f) => `images/${f}`));
  } catch (err) {
    logCaughtUnlessMissing('batch folder images listing', err);
    present = new Set();
  }
  return { record, missing: record.images.filter((i) => !present.has(i.file)) };
}

/**
 * Fills a staging folder with what a library folder already holds (its images, references and
 * records, but not batch.json, written at publish, nor review.json, merged at publish), so a
 * publish of the staging folder replaces the folder with itself plus what was added. Hard links
 * where the file system has them (same disk: the staging area is inside the library root), copies
 * elsewhere: the library folder itself is never touched until the publish's renames.
 */
export async function stageExisting(libraryRoot: string, folderName: string, staging: string): Promise<void> {
  const from = join(libraryRoot, folderName);
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(join(from, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (!rel && [BATCH_FILE, REVIEW_FILE, REVIEW_DIR].includes(entry.name)) continue;
      if (ATOMIC_LEFTOVER.test(entry.name)) continue;
      if (entry.isDirectory()) {
        await makeDir(join(staging, path));
        await walk(path);
      } else if (entry.isFile()) {
        await link(join(from, path), join(staging, path)).catch(() =>
          copyFile(join(from, path), join(staging, path)),
        );
      }
    }
  };
  await walk('');
}
