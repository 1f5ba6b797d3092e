/** How an HTTP/1.1 answer's body ends (RFC 9112 §6.3). */
export type Framing =
  { kind: 'none' } | { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'close' };

/** A chunk-size line, at most (hex digits and any extensions). */
const SIZE_LINE_MAX = 4096;
/** Trailer fields after the last chunk, at most. */
const TRAILER_MAX = 64 * 1024;

/**
 * An HTTP/1.1 body as its bytes come, read by socket-answer.ts: by its Content-Length, in chunks
 * (Transfer-Encoding: chunked, extensions and trailers skipped), or until the connection closes.
 * Data is handed on as views of the bytes fed, never copied. A malformed frame throws.
 */
export class HttpBody {
  /** Bytes of body left: of the whole (a length), or of the current chunk. */
  private left = 0;
  private state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' | 'raw';
  /** A chunk-size line or the trailer, gathered across reads. */
  private line = '';

  constructor(private readonly framing: Framing) {
    if (framing.kind === 'none' || (framing.kind === 'length' && framing.length === 0)) this.state = 'done';
    else if (framing.kind === 'chunked') this.state = 'size';
    else {
      this.state = 'raw';
      this.left = framing.kind === 'length' ? framing.length : Infinity;
    }
  }

  /** The framing an answer's status and headers give, or why it cannot be read. */
  static framing(method: string, status: number, headers: Map<string, string[]>): Framing | Error {
    if (method === 'HEAD' || status === 204 || status === 304) return { kind: 'none' };
    const coding = headers.get('transfer-encoding');
    if (coding) {
      const codings = coding
        .join(',')
        .split(',')
        .map((c) => c.trim().toLowerCase());
      // Chunked must come last; a body coded otherwise has no end but the connection's.
      return codings[codings.length - 1] === 'chunked' ? { kind: 'chunked' } : { kind: 'close' };
    }
    const lengths = headers.get('content-length');
    if (lengths) {
      const values = new Set(
        lengths
          .join(',')
          .split(',')
          .map((v) => v.trim()),
      );
      const [value] = values;
      if (values.size !== 1 || !/^\d{1,15}$/.test(value!)) return new Error('a malformed Content-Length');
      return { kind: 'length', length: Number(value) };
    }
    return { kind: 'close' };
  }

  /** True once the whole body has come. */
  get done(): boolean {
    return this.state === 'done';
  }

  /** True where only the connection's close ends the body. */
  get untilClose(): boolean {
    return this.framing.kind === 'close';
  }

  /** Takes one read's bytes, handing on the body's data in them; bytes after its end are dropped. */
  feed(bytes: Buffer, data: (piece: Buffer) => void): void {
    let at = 0;
    while (at < bytes.length && this.state !== 'done') {
      switch (this.state) {
        case 'raw':
        case 'data': {
          const n = Math.min(this.left, bytes.length - at);
          data(bytes.subarray(at, at + n));
          at += n;
          this.left -= n;
          if (this.left === 0) this.state = this.state === 'raw' ? 'done' : 'data-end';
          break;
        }
        case 'data-end':
          // The CRLF after a chunk's data, one byte at a time: it may be split between reads.
          if (this.line === '' && bytes[at] === 0x0d) this.line = '\r';
          else if (this.line === '\r' && bytes[at] === 0x0a) {
            this.line = '';
            this.state = 'size';
          } else throw new Error('a chunk that does not end where its size says');
          at++;
          break;
        case 'size': {
          at = this.gather(bytes, at, SIZE_LINE_MAX, 'a chunk size line that does not end');
          if (!this.line.endsWith('\n')) break;
          const size = /^([0-9a-fA-F]{1,13})[ \t]*(?:;[^\r\n]*)?\r?\n$/.exec(this.line);
          if (!size) throw new Error('a malformed chunk size');
          this.line = '';
          this.left = parseInt(size[1]!, 16);
          this.state = this.left === 0 ? 'trailer' : 'data';
          break;
        }
        case 'trailer':
          // Trailer fields, then an empty line. Nothing here reads them.
          at = this.gather(bytes, at, TRAILER_MAX, 'trailers that do not end');
          if (/(^|\n)\r?\n$/.test(this.line)) this.state = 'done';
          break;
      }
    }
  }
  /** Bytes from `at` up to and with the next line feed, added to `line`: where reading goes on. */
  private gather(bytes: Buffer, at: number, max: number, tooLong: string): number {
    const end = bytes.indexOf(0x0a, at);
    const to = end < 0 ? bytes.length : end + 1;
    this.line += bytes.toString('latin1', at, to);
    if (this.line.length > max) throw new Error(tooLong);
    return to;
  }
}
