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

/** Bytes taken as views of the chunks they came in (ByteSource.borrow). */
export interface Borrowed {
  views: Buffer[];
  bytes: number;
  /** The views will not be read again: their memory may be read into. Once; later calls do nothing. */
  release(): void;
}

/**
 * A ZIP arriving over the network, read forward only: exact reads for headers, chunks for entry
 * data, and bytes handed back when a reader took more than its entry (a deflate stream or a data
 * descriptor ends inside a chunk). `offset` is the archive offset of the next byte, so local
 * headers can be checked against the central directory, and a resumed stream (HTTP Range) goes
 * on from where a cut one stopped.
 *
 * A chunk whose bytes were all copied out or given back, and none handed on as a view to keep, is
 * given back to the connection it came from (read-slabs.ts), whose memory is then read into again:
 * headers and a deflated image's compressed bytes are copied out (read, readInto), and a borrowed
 * chunk comes back once its borrower is done with it. A chunk a view of which was handed on to keep
 * (chunk, readUpTo) is never given back.
 */
export class ByteSource {
  private queue: Buffer[] = [];
  /** Each queued chunk as it came, while it may still be given back; undefined once a view of it escaped. */
  private origins: (Buffer | undefined)[] = [];
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
   * Exactly `n` bytes copied into `into` (the inflate lane's buffer, at least `n` long), each chunk
   * given back as soon as it is copied out: a deflated image's compressed bytes, made one buffer so
   * that zlib inflates the whole image in one job on the thread pool. Inflated from the chunks they
   * came in (a Node gateway's are 256 KB, split further by HTTP's chunked framing; TLS records are
   * 16 KB), each chunk was a job of its own, a hop to the pool and back: 0.3 CPU-s more for a
   * 665 MB archive in memory, and 0.1 s more, copy included, through the whole ingest (measured for
   * issue 36). A stream that ends first is cut.
   */
  async readInto(n: number, into: Buffer): Promise<Buffer> {
    for (let at = 0; at < n;) {
      while (this.queued === 0) if (!(await this.pull())) throw new StreamCut(this.offset);
      const part = this.copyFront(into, at, n);
      this.offset += part;
      this.queued -= part;
      at += part;
    }
    return into.subarray(0, n);
  }

  /**
   * Exactly `n` bytes as views of the chunks they came in, not copied, until given back
   * (`release`): then their memory may be read into again. A stream that ends first is cut.
   */
  async borrow(n: number): Promise<Borrowed> {
    const views: Buffer[] = [];
    const owed: Buffer[] = [];
    for (let at = 0; at < n;) {
      while (this.queued === 0) if (!(await this.pull())) throw new StreamCut(this.offset);
      const first = this.queue[0]!;
      const origin = this.origins[0];
      const part = Math.min(first.length, n - at);
      this.offset += part;
      this.queued -= part;
      at += part;
      const view = first.subarray(0, part);
      views.push(view);
      if (part < first.length) {
        this.queue[0] = first.subarray(part);
        // The chunk's count is shared: the view's bytes come back from the borrower, the rest of
        // them (any copied out before, and those still queued) with the chunk, as a piece that long.
        if (origin) this.origins[0] = origin.subarray(0, origin.length - part);
      } else {
        this.queue.shift();
        this.origins.shift();
        if (origin && origin.length > part) giveBack(origin.subarray(0, origin.length - part));
      }
      if (origin) owed.push(view);
    }
    let released = false;
    return {
      views,
      bytes: n,
      release: () => {
        if (released) return;
        released = true;
        for (const view of owed) giveBack(view);
      },
    };
  }

  /** As borrow, the next bytes as they came, at most `max`: a deflated entry gathered up to its data descriptor. */
  async borrowChunk(max: number): Promise<Borrowed> {
    while (this.queued === 0) if (!(await this.pull())) throw new StreamCut(this.offset);
    return this.borrow(Math.min(max, this.queue[0]!.length));
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
   * `n` bytes off the front. A view where one chunk holds them ('view': its chunk is never given
   * back); a copy where they span chunks or `how` asks for one, each chunk copied out whole given
   * back at once.
   */
  private take(n: number, how: 'view' | 'copy'): Buffer {
    if (n === 0) return Buffer.alloc(0);
    this.offset += n;
    this.queued -= n;
    const first = this.queue[0]!;
    if (how === 'view' && first.length >= n) {
      this.origins[0] = undefined;
      if (first.length > n) {
        this.queue[0] = first.subarray(n);
        return first.subarray(0, n);
      }
      this.queue.shift();
      this.origins.shift();
      return first;
    }
    const out = Buffer.allocUnsafe(n);
    for (let at = 0; at < n;) at += this.copyFront(out, at, n);
    return out;
  }

  /** The front chunk's bytes copied into `into` from `at`, up to `end` at most; how many. */
  private copyFront(into: Buffer, at: number, end: number): number {
    const part = Math.min(this.queue[0]!.length, end - at);
    this.queue[0]!.copy(into, at, 0, part);
    this.copiedOut(part);
    return part;
  }

  /** The front chunk's first `part` bytes were copied out: the chunk is given back once all of it is. */
  private copiedOut(part: number): void {
    const head = this.queue[0]!;
    if (part < head.length) this.queue[0] = head.subarray(part);
    else {
      this.queue.shift();
      const origin = this.origins.shift();
      if (origin) giveBack(origin);
    }
  }
}
