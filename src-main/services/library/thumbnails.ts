import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import sharp from 'sharp';

export const THUMB_SIZE = 256;
/** The gallery's two sizes, on the long side: small cells, and large cells or high-density screens. */
export const THUMB_SIZES = [256, 640] as const;

/**
 * Gallery thumbnails, made by sharp (libvips, in its own threads, never on a UI thread), a few at a
 * time, and cached on disk under a name that includes the source's size and modification time: a
 * changed image gets a new thumbnail.
 */
export class ThumbnailService {
  private queue = new PQueue({ concurrency: Math.max(2, availableParallelism()) });
  private inFlight = new Map<string, { done: Promise<string>; waiting: number; cancel: AbortController }>();
  /** Later asks go first: after a fling, the cells now on screen are made before the ones passed. */
  private order = 0;

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
    let running = this.inFlight.get(file);
    if (!running) {
      const cancel = new AbortController();
      const done = this.queue
        .add(
          async () => {
            await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
            const tmp = `${file}.${process.pid}.tmp`;
            await sharp(source, { limitInputPixels: 268_402_689 })
              .resize(size, size, { fit: 'inside' })
              .webp({ quality: 78 })
              .toFile(tmp);
            await rename(tmp, file);
            return file;
          },
          { priority: ++this.order, signal: cancel.signal },
        )
        .finally(() => this.inFlight.delete(file)) as Promise<string>;
      running = { done, waiting: 0, cancel };
      this.inFlight.set(file, running);
    }
    // A thumbnail nobody waits for any more (the cell scrolled away and the browser gave up on it)
    // leaves the queue before it starts; one already being made is finished and cached.
    const entry = running;
    entry.waiting++;
    signal?.addEventListener(
      'abort',
      () => {
        if (--entry.waiting === 0) entry.cancel.abort();
      },
      { once: true },
    );
    return entry.done;
  }
}
