import { inflateRaw } from 'node:zlib';
import { promisify } from 'node:util';
import { refuse, unreadable } from './zip-refusal';

const inflateRawAsync = promisify(inflateRaw);

/** Entries inflated at once: one per core of a small laptop, on libuv's thread pool. */
const PARALLEL = 2;

/**
 * Deflated entries whose sizes the local header gives are inflated side by side, each in one call
 * on the thread pool, while the stream goes on to the next entry: inflate is the slow part of a
 * deflated archive, and one core alone would be its limit. (An entry with a data descriptor ends
 * only where its inflate stream does, so it is inflated in order, as it streams.)
 */
export class InflatePool {
  private running = new Set<Promise<void>>();
  private failure: unknown;

  /** Waits for room, then starts the task; a task's failure is thrown by a later call. */
  async run(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= PARALLEL) await Promise.race(this.running);
    this.check();
    const done: Promise<void> = task()
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Every task finished; the first failure, if any, thrown. */
  async drain(): Promise<void> {
    await Promise.all(this.running);
    this.check();
  }

  /** Every task finished, failures or not: before a refused ingest removes what it wrote. */
  async settle(): Promise<void> {
    await Promise.all(this.running);
  }

  private check(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}

/** One entry inflated whole; more output than announced is refused, as a bomb or a liar. */
export async function inflateWhole(compressed: Buffer, size: number, name: string): Promise<Buffer> {
  try {
    // The output buffer the entry's size: one pass on the pool and no joining of pieces.
    return await inflateRawAsync(compressed, {
      maxOutputLength: Math.max(1, size),
      chunkSize: Math.min(Math.max(64 * 1024, size + 1), 64 * 1024 * 1024),
    });
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw refuse(`${name} unpacks past the ${size} bytes announced`);
    throw unreadable('inflate', err, `the file "${name}" inside it is damaged (it does not unpack)`);
  }
}
