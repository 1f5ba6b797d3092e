import { giveBack } from '../gateway/read-slabs';

/** Bytes handed on at a time: big enough to keep calls few, small enough to stay in cache. */
export const STREAM_CHUNK = 256 * 1024;

/** The stream ended, or broke, before the archive did: resumable from the last whole entry. */
export class StreamCut extends Error {
  constructor(
    /** The absolute offset the stream reached. */
    readonly at: number,
    override readonly cause?: unknown,
  ) {
    super(`the stream ended at byte ${at}`);
  }
}

/**
 * A ZIP arriving over the network, read forward only: exact reads for headers, chunks for entry
 * data, and bytes handed back when a reader took more than its entry (a deflate stream or a data
 * descriptor ends inside a chunk). `offset` is the archive offset of the next byte, so local
 * headers can be checked against the central directory, and a resumed stream (HTTP Range) goes
 * on from where a cut one stopped.
 *
 * A chunk whose bytes were all copied out, and none handed on as a view, is given back to the
 * connection it came from (read-slabs.ts), whose memory is then read into again: headers are read
 * as copies, and an image's compressed bytes are copied into its inflate lane. A chunk a view of
 * which was handed on to keep (chunk, readUpTo) is never given back; one lent (readInto, lendChunk)
 * is given back once the reader has copied it, at its next call.
 */
export class ByteSource {
  private queue: Buffer[] = [];
  /** Each queued chunk as it came, while it may still be given back; undefined once a view of it escaped. */
  private origins: (Buffer | undefined)[] = [];
  /** A chunk lent whole (lendChunk), given back at the next call. */
  private lent: Buffer | undefined;
  private queued = 0;
  private ended = false;
  private iterator: AsyncIterator<Uint8Array>;

  constructor(
    source: AsyncIterable<Uint8Array>,
    public offset = 0,
  ) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** Goes on from another stream, which starts at `offset` (bytes queued past it are dropped). */
  resume(source: AsyncIterable<Uint8Array>, offset: number): void {
    void this.close();
    this.iterator = source[Symbol.asyncIterator]();
    // What was queued from the cut stream is dropped, not given back: its connection is gone.
    this.queue = [];
    this.origins = [];
    this.lent = undefined;
    this.queued = 0;
    this.ended = false;
    this.offset = offset;
  }

  /** Stops reading: the response behind it is released. */
  async close(): Promise<void> {
    await this.iterator.return?.().catch(() => undefined);
  }

  private async pull(): Promise<boolean> {
    if (this.ended) return false;
    let next: IteratorResult<Uint8Array>;
    try {
      next = await this.iterator.next();
    } catch (err) {
      this.ended = true;
      throw new StreamCut(this.offset + this.queued, err);
    }
    if (next.done) {
      this.ended = true;
      return false;
    }
    const v = next.value;
    const chunk = Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    if (chunk.length) {
      this.queue.push(chunk);
      this.origins.push(chunk);
      this.queued += chunk.length;
    }
    return true;
  }

  /** True once the stream has ended with nothing left in it. */
  async atEnd(): Promise<boolean> {
    while (this.queued === 0) if (!(await this.pull())) return true;
    return false;
  }

  /** Exactly `n` bytes, a copy of their own (a record's: small); a stream that ends first is cut. */
  async read(n: number): Promise<Buffer> {
    while (this.queued < n) if (!(await this.pull())) throw new StreamCut(this.offset + this.queued);
    return this.take(n, 'copy');
  }

  /**
   * Exactly `n` bytes into `into` (a buffer the caller reuses), copied as each chunk comes; a
   * stream that ends first is cut. Chunks held until all `n` bytes had come (megabytes of them)
   * would outlive the young generation's collections, and only full collections free those.
   */
  async readInto(n: number, into: Buffer): Promise<Buffer> {
    if (into.length < n) return this.read(n);
    for (let at = 0; at < n;) {
      while (this.queued === 0) if (!(await this.pull())) throw new StreamCut(this.offset);
      const piece = this.take(Math.min(n - at, this.queue[0]!.length), 'lend');
      piece.copy(into, at);
      at += piece.length;
      this.settleLent();
    }
    return into.subarray(0, n);
  }

  /** Up to `n` bytes without taking them (fewer only where the stream ends), as a copy. */
  async peek(n: number): Promise<Buffer> {
    while (this.queued < n) if (!(await this.pull())) break;
    return Buffer.concat(this.queue, Math.min(n, this.queued));
  }

  /** The next record's signature; a stream that ends before its 4 bytes is cut. */
  async signature(): Promise<number> {
    while (this.queued < 4) if (!(await this.pull())) throw new StreamCut(this.offset + this.queued);
    // A 4-byte copy: no view of a slab kept.
    return Buffer.concat(this.queue, 4).readUInt32LE(0);
  }

  /** The next bytes as they came, at most `max`; a stream that ends first is cut. */
  async chunk(max: number): Promise<Buffer> {
    while (this.queued === 0) if (!(await this.pull())) throw new StreamCut(this.offset);
    return this.take(Math.min(max, this.queue[0]!.length), 'view');
  }

  /**
   * As chunk, for a reader that copies the bytes at once: the view is good only until the next
   * call on this source, when its memory may be read into again.
   */
  async lendChunk(max: number): Promise<Buffer> {
    while (this.queued === 0) if (!(await this.pull())) throw new StreamCut(this.offset);
    return this.take(Math.min(max, this.queue[0]!.length), 'lend');
  }

  /**
   * Up to `n` bytes, gathered from as many chunks as it takes (fewer only where the stream ends):
   * fewer, larger pieces for work that costs per call (inflate on the thread pool).
   */
  async readUpTo(n: number): Promise<Buffer> {
    while (this.queued < n) if (!(await this.pull())) break;
    if (this.queued === 0) throw new StreamCut(this.offset);
    return this.take(Math.min(n, this.queued), 'view');
  }

  /** Gives back bytes read past the end of what the reader wanted. */
  unread(bytes: Buffer): void {
    if (!bytes.length) return;
    this.queue.unshift(bytes);
    this.origins.unshift(undefined);
    this.queued += bytes.length;
    this.offset -= bytes.length;
  }

  /**
   * `n` bytes off the front. A view where one chunk holds them, handed on ('view': its chunk is
   * never given back) or lent ('lend': given back at the next call); a copy where they span chunks
   * or `how` asks for one, each chunk copied out whole given back at once.
   */
  private take(n: number, how: 'view' | 'lend' | 'copy'): Buffer {
    this.settleLent();
    if (n === 0) return Buffer.alloc(0);
    this.offset += n;
    this.queued -= n;
    const first = this.queue[0]!;
    if (how !== 'copy' && first.length >= n) {
      if (first.length > n) {
        this.queue[0] = first.subarray(n);
        if (how === 'view') this.origins[0] = undefined;
        return first.subarray(0, n);
      }
      this.queue.shift();
      const origin = this.origins.shift();
      if (how === 'lend') this.lent = origin;
      return first;
    }
    const out = Buffer.allocUnsafe(n);
    let at = 0;
    while (at < n) {
      const head = this.queue[0]!;
      const part = Math.min(head.length, n - at);
      head.copy(out, at, 0, part);
      at += part;
      if (part < head.length) this.queue[0] = head.subarray(part);
      else {
        this.queue.shift();
        const origin = this.origins.shift();
        if (origin) giveBack(origin);
      }
    }
    return out;
  }

  private settleLent(): void {
    const lent = this.lent;
    this.lent = undefined;
    if (lent) giveBack(lent);
  }
}
