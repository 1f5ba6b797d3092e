import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { loadSharp } from '../../lazy-imports';
import { makeDir } from '../../storage/atomic-file';

export const THUMB_SIZE = 256;

/** A thumbnail being made, or waiting its turn, and how many asks wait for it. */
interface InFlight {
  done: Promise<string>;
  waiting: number;
  cancel: AbortController;
  started: boolean;
}

/**
 * Gallery thumbnails, made by sharp (libvips, in its own threads, never on a UI thread), a few at a
 * time, and cached on disk under a name that includes the source's size and modification time: a
 * changed image gets a new thumbnail.
 *
 * Made in the order asked. The page asks in the gallery's order, top row first, a few at a time
 * (a browser opens six connections to a host), and a cell scrolled away withdraws its ask (see
 * `fileFor`), so after a fling only the cells now on screen are left to make. Later asks used to
 * go first: then each ask the browser sent as a connection freed up went ahead of those already
 * waiting, and a cold open's top row waited for every thumbnail below it (2.3 s at 1M images).
 */
export class ThumbnailService {
  private queue = new PQueue({ concurrency: Math.max(2, availableParallelism()) });
  private inFlight = new Map<string, InFlight>();

  constructor(private dir: string) {}

  /** Names the thumbnail by the source's path, size and time: it doubles as the HTTP ETag. */
  keyOf(source: string, size: number = THUMB_SIZE): string {
    const s = statSync(source);
    return createHash('sha1').update(`${source}|${s.size}|${s.mtimeMs}|${size}`).digest('hex');
  }

  /**
   * The thumbnail file of an image, made now if it is missing or stale. The whole image fits
   * inside `size` on its long side: a 16:9 result stays 16:9, never a square crop.
   */
  async fileFor(source: string, size: number = THUMB_SIZE, signal?: AbortSignal): Promise<string> {
    const key = this.keyOf(source, size);
    const file = join(this.dir, key.slice(0, 2), `${key}.webp`);
    if (existsSync(file)) return file;
    let entry = this.inFlight.get(file);
    if (!entry) {
      const made: InFlight = {
        done: Promise.resolve(file),
        waiting: 0,
        cancel: new AbortController(),
        started: false,
      };
      made.done = this.queue
        .add(
          async () => {
            made.started = true;
            await makeDir(join(this.dir, key.slice(0, 2)));
            const tmp = `${file}.${process.pid}.tmp`;
            const sharp = await loadSharp();
            await sharp(source, { limitInputPixels: 268_402_689 })
              .resize(size, size, { fit: 'inside' })
              .webp({ quality: 78 })
              .toFile(tmp);
            await rename(tmp, file);
            return file;
          },
          { signal: made.cancel.signal },
        )
        .finally(() => this.inFlight.get(file) === made && this.inFlight.delete(file)) as Promise<string>;
      entry = made;
      this.inFlight.set(file, entry);
    }
    // A thumbnail nobody waits for any more (the cell scrolled away and the browser gave up on it)
    // leaves the queue before it starts, and at once: an ask that comes back for it starts anew
    // rather than joining the dropped one. One already being made is finished and cached.
    const joined = entry;
    joined.waiting++;
    signal?.addEventListener(
      'abort',
      () => {
        if (--joined.waiting > 0 || joined.started) return;
        joined.cancel.abort();
        if (this.inFlight.get(file) === joined) this.inFlight.delete(file);
      },
      { once: true },
    );
    return joined.done;
  }
}
