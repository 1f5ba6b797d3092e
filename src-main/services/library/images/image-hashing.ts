import { join } from 'node:path';
import { logCaught } from '../../log/studio-log';
import { existsSync } from 'node:fs';
import { writeFileAtomic } from '../../storage/atomic-file';
import { BATCH_FILE } from '../folders/batch-json';
import { HASHES_FORMAT, readHashes } from '../folders/batch-folder-record';
import { dHash } from './image-hash';

export interface ImageHashingDeps {
  root(): string;
  /** Where this studio keeps its hashes of one folder of the library at `root`: its data folder. */
  hashFileOf(root: string, folderName: string): string;
  /**
   * Images the catalog has no hash for, in catalog order after `after` (a row number), a few
   * hundred at a time: `folder` and `file` within it.
   */
  unhashed(after: number, limit: number): { row: number; folder: string; file: string }[];
  /** Reads these folders into the catalog again: this studio's hashes of them are new. */
  resync(folders: string[]): Promise<unknown>;
}

/** Images hashed per round before the catalog reads them: a batch folder or two. */
const ROUND = 400;

/**
 * Makes the perceptual hashes of the library's images in the background, once a batch has arrived
 * (never in the way of its download: the download is published first) and for a library from
 * before hashes existed. One image at a time (sharp decodes in its own threads, ~10 ms for a 1K
 * PNG), written to this studio's own hash file of the folder (never into the shared library: each
 * file there has one writer), which the catalog reads like any folder change and from which it
 * builds the near-duplicate stacks.
 */
export class ImageHashing {
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(private deps: ImageHashingDeps) {}

  /** Starts a pass, or asks the running one for another round once it ends. Resolves when idle. */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass()
      .catch((err: unknown) => logCaught('image hashes', err))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.kick();
        }
      });
    return this.running;
  }

  stop(): void {
    this.stopped = true;
  }

  private async pass(): Promise<void> {
    // A pass walks the catalog once: an image tried and still without a hash after (unreadable, or
    // a folder the catalog did not read again) waits for the next pass instead of looping.
    let after = -1;
    for (;;) {
      if (this.stopped) return;
      const root = this.deps.root();
      const pending = this.deps.unhashed(after, ROUND);
      if (!pending.length) return;
      after = pending[pending.length - 1]!.row;
      const byFolder = new Map<string, string[]>();
      for (const p of pending) byFolder.set(p.folder, [...(byFolder.get(p.folder) ?? []), p.file]);
      const hashed: string[] = [];
      for (const [folder, files] of byFolder) {
        if (this.stopped || this.deps.root() !== root) return;
        const dir = join(root, folder);
        const own = this.deps.hashFileOf(root, folder);
        const hashes = await readHashes(dir, own);
        const started = performance.now();
        let made = 0;
        for (const file of files) {
          try {
            hashes[file] = await dHash(join(dir, file));
            made++;
          } catch (err) {
            logCaught(`image hash of ${folder}/${file}`, err);
          }
        }
        // Nothing new (every image undecodable): hashes.json stays as it is. Rewritten, it would
        // change the folder, whose new reading starts another pass, and so on without end.
        if (!made) continue;
        // A folder deleted meanwhile (in the file manager) is not made again for its hashes.
        if (!existsSync(join(dir, BATCH_FILE))) continue;
        await writeFileAtomic(own, `${JSON.stringify({ format: HASHES_FORMAT, images: hashes })}\n`);
        hashed.push(folder);
        // Half a core at most: a library from before hashes existed is hashed beside the work, not
        // in its way (thumbnails share sharp's threads).
        await new Promise((r) => setTimeout(r, performance.now() - started).unref());
      }
      await this.deps.resync(hashed);
    }
  }
}
