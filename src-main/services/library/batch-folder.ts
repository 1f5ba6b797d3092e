import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Draft } from '../../../src-shared/draft';
import type { WireBatch } from '../gateway/batch-wire';
import { writeJsonAtomic } from './atomic-file';
import { safeName } from './file-names';

/** Staging lives inside the library root so the final move is one rename on one file system. */
export const STAGING_DIR = '.studio-staging';
export const BATCH_FILE = 'batch.json';
export const BATCH_FORMAT = 'batch-image-studio.batch/1';

/** The readable record of a downloaded batch, written last into its folder. */
export interface BatchFile {
  format: typeof BATCH_FORMAT;
  batch: WireBatch;
  profile: { id: string; name: string };
  lineage: { rootBatchId: string; parentBatchId: string | null };
  draft: Draft | null;
  references: { id: string; name: string; mime: string; file: string }[];
  images: {
    customId: string;
    imageIndex: number;
    file: string;
    mime: string;
    bytes: number;
    rowIndex: number | null;
    prompt: string;
  }[];
  failures: { customId: string; code: string; message: string; rowIndex: number | null; prompt: string }[];
  download: { source: 'zip' | 'items'; downloadedAt: string };
}

/** `2026-11-22 Autumn mugs imgbatch_…`: sorts by date, says what it is, and is unique by id. */
export function batchFolderName(batch: Pick<WireBatch, 'id' | 'task_name' | 'created_at'>): string {
  const day = new Date((batch.created_at || Date.now() / 1000) * 1000).toISOString().slice(0, 10);
  const name = safeName(batch.task_name || 'batch', 60);
  return `${day} ${name} ${safeName(batch.id, 80)}`;
}

export async function newStagingDir(libraryRoot: string, batchId: string): Promise<string> {
  const dir = join(libraryRoot, STAGING_DIR, `${safeName(batchId, 80)}-${randomBytes(4).toString('hex')}`);
  await mkdir(join(dir, 'images'), { recursive: true });
  return dir;
}

/** Whatever a crash left half-done is thrown away at start; nothing in it was ever in the library. */
export async function clearStaging(libraryRoot: string): Promise<void> {
  await rm(join(libraryRoot, STAGING_DIR), { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Moves a complete staging folder into the library in one rename. A folder downloaded before is
 * replaced whole, keeping its review marks.
 */
export async function publishBatchFolder(
  libraryRoot: string,
  staging: string,
  folderName: string,
  file: BatchFile,
): Promise<string> {
  const target = join(libraryRoot, folderName);
  if (existsSync(join(target, 'review.json')))
    await copyFile(join(target, 'review.json'), join(staging, 'review.json'));
  await writeJsonAtomic(join(staging, BATCH_FILE), file);
  await mkdir(libraryRoot, { recursive: true });
  if (existsSync(target)) {
    const old = join(libraryRoot, STAGING_DIR, `replaced-${randomBytes(4).toString('hex')}`);
    await rename(target, old);
    await rename(staging, target);
    await rm(old, { recursive: true, force: true });
  } else {
    await rename(staging, target);
  }
  return folderName;
}
