import { rmSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HEARTBEAT_MS } from '../../storage/data-folder-lock';
import { logCaught } from '../../log/studio-log';
import { makeDir } from '../../storage/atomic-file';
import {
  LEGACY_STAGING_DIR,
  newStagingDir,
  recoverReplaced,
  removeLibraryLeftovers,
} from '../folders/batch-folder';
import { safeName } from '../../storage/file-names';
import { createOwnerFile, heartbeat, otherOwnerLives, readOwner } from './studio-owner';

/** The studios' own folder in a shared library: staging areas and download leases. */
export const STUDIO_DIR = '.studio';
const OWNER_FILE = 'owner.json';
/** A staging area whose owner on another machine has not touched it for this long is its crash's. */
const STAGING_STALE_MS = 5 * HEARTBEAT_MS;

/** Syncthing's ignore file: a studio's downloads in progress never travel to another machine. */
const STIGNORE_FILE = '.stignore';
const STIGNORE = `// Batch Image Studio: each studio's downloads in progress stay on its own machine.
/${STUDIO_DIR}/staging
`;

/** One studio's staging area in the library at `root`. */
export function stagingAreaOf(root: string, studioId: string): string {
  return join(root, STUDIO_DIR, 'staging', safeName(studioId, 80));
}

/**
 * A studio's downloads in progress, in its own area of the shared library
 * (`.studio/staging/<studioId>/`), with an owner record it touches while it runs, as the data
 * folder's lock is. A studio cleans only its own area, and only after its own crash: an area whose
 * owner is alive (this machine's process still running, or another machine's heartbeat fresh) is
 * never touched, nor is any other studio's.
 */
export class StudioStaging {
  private claimed?: { root: string; stop: () => void };

  constructor(
    private root: () => string,
    private studioId: string,
  ) {}

  /** A new folder for one download, in this studio's area of the current library. */
  async newDir(batchId: string): Promise<string> {
    const root = this.root();
    await this.claim(root);
    return newStagingDir(stagingAreaOf(root, this.studioId), batchId);
  }

  /**
   * At start, after a kill: this studio's area gives back the folders a replacement moved aside
   * (or their marks), and the rest of it (downloads cut short, never in the library) goes. The
   * legacy shared area of older studios is only searched for folders moved aside, never emptied:
   * an older studio of the team may be downloading into it.
   */
  async recover(): Promise<{ restored: string[] }> {
    const root = this.root();
    const area = stagingAreaOf(root, this.studioId);
    const owner = readOwner(join(area, OWNER_FILE));
    const restored: string[] = [];
    if (owner && otherOwnerLives(owner, join(area, OWNER_FILE), this.studioId, STAGING_STALE_MS)) {
      logCaught('staging recovery', new Error(`${area} is in use by a running studio: left alone`));
    } else {
      const own = await recoverReplaced(root, area);
      restored.push(...own.restored);
      const keep = new Set([...own.kept, OWNER_FILE]);
      for (const name of await readdir(area).catch(() => [] as string[]))
        if (!keep.has(name)) await rm(join(area, name), { recursive: true, force: true, maxRetries: 3 });
      await rm(join(area, OWNER_FILE), { force: true });
    }
    restored.push(...(await recoverReplaced(root, join(root, LEGACY_STAGING_DIR))).restored);
    await removeLibraryLeftovers(root);
    await this.ignoreInSyncthing(root);
    return { restored };
  }

  /** Says this studio owns its area of `root` (once per library folder), and keeps saying it. */
  private async claim(root: string): Promise<void> {
    if (this.claimed?.root === root) return;
    this.claimed?.stop();
    this.claimed = undefined;
    const area = stagingAreaOf(root, this.studioId);
    const file = join(area, OWNER_FILE);
    await makeDir(area);
    await this.ignoreInSyncthing(root);
    const owner = readOwner(file);
    if (owner && !otherOwnerLives(owner, file, this.studioId, STAGING_STALE_MS))
      await rm(file, { force: true });
    // Another running studio with this id (a copied data folder) keeps its record; this one
    // still downloads, into folders of its own names.
    await createOwnerFile(file, this.studioId).catch((err: unknown) =>
      logCaught('staging owner record', err),
    );
    this.claimed = { root, stop: heartbeat(file, HEARTBEAT_MS) };
  }

  /** A clean stop: the area's owner record goes, so nobody waits for a heartbeat to age. */
  stop(): void {
    const claimed = this.claimed;
    this.claimed = undefined;
    if (!claimed) return;
    claimed.stop();
    try {
      rmSync(join(stagingAreaOf(claimed.root, this.studioId), OWNER_FILE), { force: true });
    } catch (err) {
      logCaught('staging owner record removal', err);
    }
  }

  /** Writes `.stignore` when the library has none; one already there is the team's, never changed. */
  private async ignoreInSyncthing(root: string): Promise<void> {
    await writeFile(join(root, STIGNORE_FILE), STIGNORE, { flag: 'wx' }).catch((err: unknown) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOENT') logCaught('library .stignore', err);
    });
  }
}
