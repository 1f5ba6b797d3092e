import { JOIN_BELOW, STEP } from './inflate-steps';
import type { Borrowed } from './zip-byte-source';

/**
 * A deflated entry's compressed bytes as gathered up to its data descriptor (zip-descriptors.ts):
 * read at offsets across the pieces they came in, where the descriptor is looked for, then handed
 * to its inflate lane as they are. Joining every chunk into one buffer copied every byte of the
 * entry: a ninth of the main thread's CPU for a 660 MB archive (measured for issue 36).
 *
 * Chunks of JOIN_BELOW or more are kept as borrowed, views of the connection's memory, given back
 * once the entry is inflated (release). Shorter ones (TLS records of 16 KB, a gateway's small
 * chunked frames) are copied into `room`, the lane's buffer, joined into pieces of about STEP, and
 * given back at once, as ByteSource.borrow does: held as views, they would keep every slab of the
 * entry until it is inflated, and one view per frame.
 */
export class GatheredChunks {
  private views: Buffer[] = [];
  /** Where each view starts among the bytes gathered. */
  private starts: number[] = [];
  /** The borrowed chunks kept as views: given back by release. */
  private owed: Borrowed[] = [];
  /** The buffer short chunks are joined in, and how much of it they fill. */
  private joined?: Buffer;
  private used = 0;
  /** Where the last view starts in `joined`, while it is a joined piece that may still grow. */
  private stepFrom = -1;
  length = 0;

  /** `room(n)`: a buffer of at least `n` bytes, to join short chunks in (the lane's). */
  constructor(private readonly room?: (n: number) => Buffer) {}

  /** The next chunk, borrowed from the source (ByteSource.borrowChunk): one view. */
  add(chunk: Borrowed): void {
    // borrowChunk lends one view; more are joined into one (a copy), and read as one.
    const view = chunk.views.length === 1 ? chunk.views[0]! : Buffer.concat(chunk.views);
    const n = chunk.bytes;
    if (!n) return chunk.release();
    if (!this.room || n >= JOIN_BELOW) {
      this.owed.push(chunk);
      this.stepFrom = -1;
      this.push(view);
      return;
    }
    if (!this.joined || this.used + n > this.joined.length) {
      // A full buffer is not copied into a larger one: the views of it stay good. Its successor
      // is twice as large, and the lane keeps it for the next entries.
      this.joined = this.room(Math.max(n, 2 * (this.joined?.length ?? STEP)));
      this.used = 0;
      this.stepFrom = -1;
    }
    const room = this.joined;
    view.copy(room, this.used);
    chunk.release();
    if (this.stepFrom >= 0 && this.used - this.stepFrom < STEP) {
      this.views[this.views.length - 1] = room.subarray(this.stepFrom, this.used + n);
      this.length += n;
    } else {
      this.stepFrom = this.used;
      this.push(room.subarray(this.used, this.used + n));
    }
    this.used += n;
  }

  /** The borrowed chunks will not be read again: their memory may be read into. */
  release(): void {
    for (const chunk of this.owed.splice(0)) chunk.release();
  }

  private push(view: Buffer): void {
    this.views.push(view);
    this.starts.push(this.length);
    this.length += view.length;
  }

  /** The view that holds byte `at`: searched from the last, where a descriptor is looked for. */
  private viewAt(at: number): number {
    let i = this.views.length - 1;
    while (i > 0 && this.starts[i]! > at) i--;
    return i;
  }

  private byte(at: number): number {
    const i = this.viewAt(at);
    return this.views[i]![at - this.starts[i]!]!;
  }

  u32(at: number): number {
    const i = this.viewAt(at);
    const view = this.views[i]!;
    const o = at - this.starts[i]!;
    if (o + 4 <= view.length) return view.readUInt32LE(o);
    // Across two views.
    return (
      (this.byte(at) | (this.byte(at + 1) << 8) | (this.byte(at + 2) << 16) | (this.byte(at + 3) << 24)) >>> 0
    );
  }

  /** Where "PK" next starts, at or after `from`, within a view or across two; -1 where it does not. */
  nextPK(from: number): number {
    for (let i = this.viewAt(from); i < this.views.length; i++) {
      const view = this.views[i]!;
      const start = this.starts[i]!;
      const local = Math.max(0, from - start);
      const found = view.indexOf('PK', local);
      if (found >= 0) return start + found;
      const last = view.length - 1;
      if (last >= local && view[last] === 0x50 && this.views[i + 1]?.[0] === 0x4b) return start + last;
    }
    return -1;
  }

  /** Bytes `from` to `to`, copied into a buffer of their own. */
  copy(from: number, to: number): Buffer {
    const out = Buffer.allocUnsafe(Math.max(0, to - from));
    for (let i = this.viewAt(from), at = from; at < to; i++) {
      const view = this.views[i]!;
      const o = at - this.starts[i]!;
      const n = Math.min(view.length - o, to - at);
      view.copy(out, at - from, o, o + n);
      at += n;
    }
    return out;
  }

  /** The views of the first `end` bytes, the last cut short where `end` falls inside it. */
  viewsUpTo(end: number): Buffer[] {
    const out: Buffer[] = [];
    for (let i = 0; i < this.views.length && this.starts[i]! < end; i++)
      out.push(this.views[i]!.subarray(0, end - this.starts[i]!));
    return out;
  }
}
