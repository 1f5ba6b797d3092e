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
 */
export class ByteSource {
  private queue: Buffer[] = [];
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
    this.queue = [];
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
      this.queued += chunk.length;
    }
    return true;
  }

  /** True once the stream has ended with nothing left in it. */
  async atEnd(): Promise<boolean> {
    while (this.queued === 0) if (!(await this.pull())) return true;
    return false;
  }

  /** Exactly `n` bytes; a stream that ends first is cut. */
  async read(n: number): Promise<Buffer> {
    while (this.queued < n) if (!(await this.pull())) throw new StreamCut(this.offset + this.queued);
    return this.take(n);
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
      const piece = this.take(Math.min(n - at, this.queue[0]!.length));
      piece.copy(into, at);
      at += piece.length;
    }
    return into.subarray(0, n);
  }

  /** Up to `n` bytes without taking them (fewer only where the stream ends). */
  async peek(n: number): Promise<Buffer> {
    while (this.queued < n) if (!(await this.pull())) break;
    const first = this.queue[0];
    if (first && first.length >= n) return first.subarray(0, n);
    return Buffer.concat(this.queue, Math.min(n, this.queued));
  }

  /** The next record's signature; a stream that ends before its 4 bytes is cut. */
  async signature(): Promise<number> {
    const head = await this.peek(4);
    if (head.length < 4) throw new StreamCut(this.offset + head.length);
    return head.readUInt32LE(0);
  }

  /** The next bytes as they came, at most `max`; a stream that ends first is cut. */
  async chunk(max: number): Promise<Buffer> {
    while (this.queued === 0) if (!(await this.pull())) throw new StreamCut(this.offset);
    return this.take(Math.min(max, this.queue[0]!.length));
  }

  /**
   * Up to `n` bytes, gathered from as many chunks as it takes (fewer only where the stream ends):
   * fewer, larger pieces for work that costs per call (inflate on the thread pool).
   */
  async readUpTo(n: number): Promise<Buffer> {
    while (this.queued < n) if (!(await this.pull())) break;
    if (this.queued === 0) throw new StreamCut(this.offset);
    return this.take(Math.min(n, this.queued));
  }

  /** Gives back bytes read past the end of what the reader wanted. */
  unread(bytes: Buffer): void {
    if (!bytes.length) return;
    this.queue.unshift(bytes);
    this.queued += bytes.length;
    this.offset -= bytes.length;
  }

  private take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    this.offset += n;
    this.queued -= n;
    const first = this.queue[0]!;
    if (first.length > n) {
      this.queue[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    if (first.length === n) return this.queue.shift()!;
    const out = Buffer.allocUnsafe(n);
    let at = 0;
    while (at < n) {
      const head = this.queue[0]!;
      const part = Math.min(head.length, n - at);
      head.copy(out, at, 0, part);
      at += part;
      if (part === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(part);
    }
    return out;
  }
}
