import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DownloadState } from '../../../src-shared/batch-view';
import type { WireBatch } from '../gateway/batch-wire';
import { batchFolderName, folderContents, type FolderContents } from '../library/folders/batch-folder';
import { claimLease, type HeldLease } from '../library/sharing/download-lease';
import { safeName } from '../storage/file-names';
import { logCaught, logCaughtUnlessMissing } from '../log/studio-log';

/** How often a studio waiting for another's download looks whether it is done. */
const WAIT_LOOK_MS = 500;

export interface FoundFolder {
  name: string;
  contents: FolderContents;
}

/**
 * The library folder of a batch, whoever published it (this studio, another of the team, a sync
 * tool): under the name this studio would give it, or any folder whose name ends with the batch's
 * id and whose record says it is that batch (a task renamed on another machine).
 */
export async function findBatchFolder(
  root: string,
  remote: Pick<WireBatch, 'id' | 'task_name' | 'created_at'>,
): Promise<FoundFolder | undefined> {
  const named = batchFolderName(remote);
  const candidates = [named];
  try {
    const suffix = ` ${safeName(remote.id, 80)}`;
    for (const name of await readdir(root))
      if (name !== named && name.endsWith(suffix) && !name.startsWith('.')) candidates.push(name);
  } catch (err) {
    logCaughtUnlessMissing('library folder listing', err);
  }
  for (const name of candidates) {
    if (!existsSync(join(root, name))) continue;
    const contents = await folderContents(root, name);
    if (contents?.record.batch.id === remote.id) return { name, contents };
  }
  return undefined;
}

/** What a batch's download says once its folder, published by whoever, is adopted. */
export function adoptedDownload(
  { name, contents }: FoundFolder,
  completedAt?: number,
): Partial<DownloadState> {
  return {
    state: 'done',
    folder: name,
    images: contents.record.images.length,
    missing: contents.missing.length || undefined,
    completedAt: completedAt ?? Date.now(),
    error: undefined,
    zipError: undefined,
    nextRetryAt: undefined,
  };
}

export type Claim = { lease: HeldLease } | { adopted: FoundFolder } | { stopped: true };

/**
 * One download of a batch across the team. Unless `again` (the user's "Download again" of a
 * folder this studio has), a batch whose folder is already in the library is adopted, never
 * fetched again; otherwise the batch's lease is claimed, and while another live studio holds it,
 * this one waits (`waiting` says so once) and looks again until the folder appears or the lease
 * is free. A library where no lease can be made (read-only) gets none: its download fails on its
 * own staging soon after, with the reason people can act on.
 */
export async function claimDownload(options: {
  root: string;
  remote: Pick<WireBatch, 'id' | 'task_name' | 'created_at'>;
  studioId: string;
  again: boolean;
  /** A folder found but lacking images, which this download is meant to complete, is not adopted. */
  completing?: string;
  waiting(): void;
  stopped(): boolean;
}): Promise<Claim> {
  const { root, remote, studioId } = options;
  const adoptable = async () => {
    if (options.again) return undefined;
    const found = await findBatchFolder(root, remote);
    if (found && found.name === options.completing && found.contents.missing.length > 0) return undefined;
    return found;
  };
  let told = false;
  for (;;) {
    if (options.stopped()) return { stopped: true };
    const before = await adoptable();
    if (before) return { adopted: before };
    const lease = await claimLease(root, remote.id, studioId).catch((err: unknown) => {
      logCaught('download lease', err);
      return { release: () => Promise.resolve() };
    });
    if (lease) {
      // Published and released by another studio between the look and the claim.
      const after = await adoptable();
      if (!after) return { lease };
      await lease.release();
      return { adopted: after };
    }
    if (!told) options.waiting();
    told = true;
    await new Promise((r) => setTimeout(r, WAIT_LOOK_MS).unref());
  }
}
