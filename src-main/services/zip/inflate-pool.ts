import { createInflateRaw } from 'node:zlib';
import { StudioError } from '../../../src-shared/studio-error';
import { logCaught } from '../log/studio-log';
import { crc32 } from './crc32';
import { laneBuffer } from './direct-write';
import { refuse, unreadable } from './zip-refusal';

/**
 * Entries inflated at once, on libuv's thread pool (four threads). Three, even on two cores: each
 * lane alternates the inflate of an image with the writes of its output, so three keep two cores
 * busy where two left a quarter of them idle (a 660 MB deflated archive, two cores: 3.15–3.4 s
 * against 3.3–4.1). Not more: the files' writes and fsyncs need a pool thread too.
 */
const PARALLEL = 3;
/** The largest buffer a lane keeps between entries; a larger entry's output comes in pieces. */
const KEEP_MAX = 64 * 1024 * 1024;

/**
 * The size to allocate for a need of `n` bytes: a quarter more, up to KEEP_MAX. Images of one
 * batch differ by a few percent, and a buffer sized exactly was outgrown by most of the next
 * larger ones: 34 fresh 3 MB buffers for a 200-image archive, each one's pages faulted in anew
 * (25,000 page faults, about 85 ms of CPU) and the old left to the garbage collector.
 */
const roomFor = (n: number): number => (n >= KEEP_MAX ? n : Math.min(KEEP_MAX, n + (n >> 2)));

/**
 * One entry's working memory, kept between entries: its compressed bytes, copied out of the
 * network's chunks (ByteSource.readInto) or gathered up to its data descriptor, and its inflated
 * output. A fresh pair per entry (two 3 MB buffers for each image of a 1K batch) sets off a full
 * garbage collection every few entries, from the pressure of external memory alone: about 80 per
 * 600 MB archive, a second of CPU, more in a studio whose heap is large.
 */
export class Lane {
  private inBuf = Buffer.alloc(0);
  private outBuf = Buffer.alloc(0);

  /** A buffer of at least `n` bytes for the compressed data. */
  input(n: number): Buffer {
    if (this.inBuf.length < n) this.inBuf = Buffer.allocUnsafe(roomFor(n));
    return this.inBuf;
  }

  /**
   * The compressed data's buffer with room for at least `n` bytes, its first `kept` bytes kept:
   * for an entry whose size only a data descriptor after it tells, gathered as it comes.
   */
  grow(n: number, kept: number): Buffer {
    if (this.inBuf.length >= n) return this.inBuf;
    // Doubling, to copy the gathered bytes a few times only; by at most 8 MB past the need.
    const next = Buffer.allocUnsafe(Math.max(n, Math.min(2 * this.inBuf.length, n + 8 * 1024 * 1024)));
    this.inBuf.copy(next, 0, 0, kept);
    this.inBuf = next;
    return next;
  }

  /** Lets go of a buffer larger than those kept between entries (a rare very large image's). */
  trim(): this {
    if (this.inBuf.length > KEEP_MAX) this.inBuf = Buffer.alloc(0);
    if (this.outBuf.length > KEEP_MAX) this.outBuf = Buffer.alloc(0);
    return this;
  }

  /** A buffer for the output: `n` bytes, at most the largest kept. */
  output(n: number): Buffer {
    const want = Math.min(Math.max(n, 64 * 1024), KEEP_MAX);
    // Page-aligned where the image can then be written straight to the disk (direct-write.ts).
    if (this.outBuf.length < want) this.outBuf = laneBuffer(roomFor(want));
    return this.outBuf;
  }
}

/**
 * Deflated images are inflated side by side on the thread pool while the stream goes on to the
 * next entries: inflate is the slow part of a deflated archive, and one core alone would be its
 * limit. Each is read whole first: by the size its local header gives, or up to its data
 * descriptor (zip-descriptors.ts).
 */
export class InflatePool {
  private running = new Set<Promise<void>>();
  private free = Array.from({ length: PARALLEL }, () => new Lane());
  private failure: unknown;

  /**
   * Waits for a free lane; `read` fills it from the stream, in the stream's order; then `task`
   * runs beside the next entries, and the lane's buffers are reused once it has finished with
   * them. Answers false, with no task, where `read` found nothing to hand on. A task's failure is
   * thrown by a later call.
   */
  async run<T>(
    read: (lane: Lane) => Promise<T | undefined>,
    task: (got: T, lane: Lane) => Promise<void>,
  ): Promise<boolean> {
    while (!this.free.length) await Promise.race(this.running);
    this.check();
    const lane = this.free.pop()!;
    let got: T | undefined;
    try {
      got = await read(lane);
    } finally {
      if (got === undefined) this.free.push(lane.trim());
    }
    if (got === undefined) return false;
    const done: Promise<void> = task(got, lane)
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => {
        this.running.delete(done);
        this.free.push(lane.trim());
      });
    this.running.add(done);
    return true;
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

/** What Node's zlib streams keep their output in (lib/zlib.js, the same since Node 10). */
interface ZlibOutput {
  _outBuffer?: unknown;
  _outOffset?: unknown;
  _chunkSize?: unknown;
}

/** Node has no public way to inflate into a caller's buffer: the stream is handed one in its own fields. */
const intoLane = (inflate: object, out: Buffer): boolean => {
  const internals = inflate as ZlibOutput;
  if (
    !Buffer.isBuffer(internals._outBuffer) ||
    typeof internals._outOffset !== 'number' ||
    typeof internals._chunkSize !== 'number'
  )
    return false;
  internals._outBuffer = out;
  internals._outOffset = 0;
  internals._chunkSize = out.length;
  return true;
};

/**
 * Whether this Node keeps a zlib stream's output where intoLane hands it a buffer, asked once:
 * where it does not, streams inflate into buffers of their own, 256 KB at a time (with the 64-byte
 * buffer a handed one replaces, inflate would crawl).
 */
const HANDS_BUFFERS = (() => {
  const probe = createInflateRaw({ chunkSize: 64 });
  const handed = intoLane(probe, Buffer.alloc(64));
  probe.destroy();
  return handed;
})();
if (!HANDS_BUFFERS) logCaught('inflate buffers', new Error("Node's zlib keeps its output elsewhere"));

/** The inflated bytes are not those the archive recorded (their CRC-32 or their count). */
export class CheckFailed extends Error {}

/**
 * One entry inflated on the thread pool into the lane's output buffer, in one job where it fits
 * (KEEP_MAX): its compressed bytes are one buffer (ByteSource.readInto, or gathered to its data
 * descriptor), and each job is a hop to the pool and back. Inflated a step of 256 KB at a time, a
 * 665 MB archive took 0.3 CPU-s more in memory, and its whole ingest about 0.1 s more (measured
 * for issue 36). The pieces are views of the lane's buffer, good until the lane is reused; more
 * output than announced is refused, as a bomb or a liar; so is input left after the deflate
 * stream ends.
 *
 * Where the entry's CRC-32 is known before it is inflated (`crc`), each piece is checked as it is
 * handed on, on the main thread (crc32.ts), and a mismatch throws CheckFailed after the last. Not
 * by zlib on the pool, the data framed as a gzip member: zlib's CRC-32 is the slower where Node is
 * built against a system zlib, and on two cores the pool's time is the inflate's (0.14 CPU-s and
 * about 0.1 s less for a 665 MB archive, measured for issue 36).
 *
 * Where a Node release keeps a stream's output elsewhere (HANDS_BUFFERS), the pieces are buffers
 * of the stream's own, 256 KB each.
 */
export async function* inflatePieces(
  compressed: Buffer,
  size: number,
  name: string,
  lane: Lane,
  crc?: number,
): AsyncGenerator<Buffer> {
  const inflate = createInflateRaw({ chunkSize: HANDS_BUFFERS ? 64 : 256 * 1024 });
  // One byte more than announced: output past it shows in the lane's buffer, not a new one.
  if (HANDS_BUFFERS) intoLane(inflate, lane.output(size + 1));
  const length = compressed.length;
  inflate.write(compressed);
  inflate.end();
  let got = 0;
  let running = 0;
  try {
    for await (const piece of inflate as AsyncIterable<Buffer>) {
      got += piece.length;
      if (got > size) throw refuse(`${name} unpacks past the ${size} bytes announced`);
      if (crc !== undefined) running = crc32(piece, running);
      yield piece;
    }
  } catch (err) {
    if (err instanceof StudioError) throw err;
    throw unreadable('inflate', err, `the file "${name}" inside it is damaged (it does not unpack)`);
  } finally {
    inflate.destroy();
  }
  if (inflate.bytesWritten !== length)
    throw refuse(`${name} ends after ${inflate.bytesWritten} of its ${length} compressed bytes`);
  if (crc !== undefined && running !== crc >>> 0) throw new CheckFailed();
}
