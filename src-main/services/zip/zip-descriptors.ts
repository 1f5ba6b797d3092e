import { crc32 } from './crc32';
import { ByteSource, STREAM_CHUNK, StreamCut, type Borrowed } from './zip-byte-source';
import { refuse } from './zip-refusal';
import type { DataRead } from './zip-stream-records';
import { SIG_CENTRAL, SIG_LOCAL } from './zip-stream-records';

/**
 * Data descriptors: an entry's CRC-32 and sizes after its data, where its local header could not
 * give them (bit 3), with or without the signature "PK\x07\x08", in 32 or 64 bits, as libarchive
 * and sunzip find them. An unsigned one has nothing of its own to be known by: it counts only
 * where the next header follows it at once.
 */
const SIG_DESCRIPTOR = 0x08074b50;
/** What a candidate reads past its start: a signed 64-bit descriptor, then the next signature. */
const AHEAD = 28;

interface Reading extends DataRead {
  length: number;
  /** The next header follows it at once. */
  followed: boolean;
}

/** The two readings (32 and 64 bits wide) of a descriptor starting at `at`, as far as `buf` holds them. */
function readingsAt(buf: Buffer, at: number, signed: boolean): Reading[] {
  const f = at + (signed ? 4 : 0);
  const followed = (end: number) =>
    end + 4 <= buf.length && [SIG_LOCAL, SIG_CENTRAL].includes(buf.readUInt32LE(end));
  const readings: Reading[] = [];
  if (at < 0 || f + 12 > buf.length) return readings;
  const crc = buf.readUInt32LE(f);
  readings.push({
    crc,
    compressed: buf.readUInt32LE(f + 4),
    size: buf.readUInt32LE(f + 8),
    length: f + 12 - at,
    followed: followed(f + 12),
  });
  if (f + 20 <= buf.length)
    readings.push({
      crc,
      compressed: Number(buf.readBigUInt64LE(f + 4)),
      size: Number(buf.readBigUInt64LE(f + 12)),
      length: f + 20 - at,
      followed: followed(f + 20),
    });
  return readings;
}

/** Where a descriptor may start in `buf`, from `from` to `to`, in order: at its signature, or 12 or 20 bytes before a header's. */
function descriptorStarts(buf: Buffer, from: number, to: number): { at: number; signed: boolean }[] {
  const starts: { at: number; signed: boolean }[] = [];
  for (
    let i = buf.indexOf('PK', from);
    i >= 0 && i <= to + 20 && i + 4 <= buf.length;
    i = buf.indexOf('PK', i + 1)
  ) {
    const sig = buf.readUInt32LE(i);
    if (sig === SIG_DESCRIPTOR && i <= to) starts.push({ at: i, signed: true });
    else if (sig === SIG_LOCAL || sig === SIG_CENTRAL)
      for (const back of [12, 20])
        if (i - back >= from && i - back <= to) starts.push({ at: i - back, signed: false });
  }
  return starts.sort((a, b) => a.at - b.at);
}

/** The length of the descriptor at `at` if it says exactly `read`. */
function descriptorLength(buf: Buffer, at: number, signed: boolean, read: DataRead): number | undefined {
  return readingsAt(buf, at, signed).find(
    (r) =>
      r.crc === read.crc >>> 0 &&
      r.compressed === read.compressed &&
      r.size === read.size &&
      (signed || r.followed),
  )?.length;
}

export interface Found {
  at: number;
  length: number;
  crc: number;
}

/**
 * The first place in `buf` (up to `limit`) where a descriptor starts that matches a stored entry's
 * data before it: the running CRC from `crcBefore`, and the bytes from `sizeBefore`.
 */
export function findDescriptor(
  buf: Buffer,
  crcBefore: number,
  sizeBefore: number,
  limit: number,
): Found | undefined {
  let crc = crcBefore;
  let crcAt = 0;
  for (const { at, signed } of descriptorStarts(buf, 0, limit)) {
    crc = crc32(buf.subarray(crcAt, at), crc);
    crcAt = at;
    const size = sizeBefore + at;
    const length = descriptorLength(buf, at, signed, { crc, compressed: size, size });
    if (length) return { at, length, crc: crc >>> 0 };
  }
  return undefined;
}

/**
 * The data descriptor after a deflated entry with bit 3, read as it streamed: its CRC and sizes
 * must be what was just read.
 */
export async function readDescriptor(src: ByteSource, name: string, read: DataRead): Promise<void> {
  const head = await src.peek(AHEAD);
  const signed = head.length >= 4 && head.readUInt32LE(0) === SIG_DESCRIPTOR;
  const length = descriptorLength(head, 0, signed, read);
  if (length) return void (await src.read(length));
  // Fewer bytes than every form and the next signature take: the stream ended within them, and
  // the wider form, not seen whole, may be the one that matches.
  if (head.length < AHEAD) throw new StreamCut(src.offset + head.length);
  throw refuse(`the data descriptor of ${name} does not match its data`);
}

/** A deflated entry gathered up to its data descriptor, and what the descriptor says of it. */
export interface Gathered {
  compressed: Buffer;
  crc: number;
  size: number;
}

/** The most a deflate stream of `size` bytes takes (zlib's deflateBound): stored blocks add a little. */
export const deflateBound = (size: number) => size + (size >> 12) + (size >> 14) + (size >> 25) + 13;

/**
 * A deflated entry whose sizes only its data descriptor tells, as Go's archive/zip and other
 * streaming writers emit, gathered whole (into `room`, a buffer kept between entries) so that it
 * can be inflated beside the next ones rather than in order. It ends at the first descriptor whose
 * compressed size is the bytes gathered before it and that the next header follows at once. That
 * is only where the entry seems to end: inflating it proves it, as its deflate stream must end
 * exactly there and its CRC and size be the descriptor's, or the archive is refused. A false end
 * needs 12 bytes of compressed data to mimic a descriptor counting its own offset, then a header.
 *
 * Where the stream ends or breaks first, what was gathered goes back to the source and the answer
 * is undefined: the entry is then read as it streams (inflatedData), whose inflate stream says
 * where it ends, and so whether its descriptor lies or the stream was cut.
 */
export async function deflatedUntilDescriptor(
  src: ByteSource,
  name: string,
  maxSize: number,
  room: (n: number, kept: number) => Buffer,
): Promise<Gathered | undefined> {
  const most = deflateBound(maxSize);
  let buf = room(STREAM_CHUNK, 0);
  let at = 0;
  let searched = 0;
  for (;;) {
    let next: Borrowed;
    try {
      next = await src.borrowChunk(STREAM_CHUNK);
    } catch (err) {
      if (!(err instanceof StreamCut)) throw err;
      src.unread(Buffer.from(buf.subarray(0, at)));
      return undefined;
    }
    const [chunk] = next.views;
    if (at + next.bytes > buf.length) buf = room(at + next.bytes, at);
    chunk!.copy(buf, at);
    at += next.bytes;
    // Copied: its memory may be read into again.
    next.release();
    const end = findEnd(buf.subarray(0, at), searched, at - AHEAD);
    if (end && end.at <= most) {
      // What came after the descriptor goes back to the source, copied: `buf` is reused.
      src.unread(Buffer.from(buf.subarray(end.at + end.length, at)));
      return { compressed: buf.subarray(0, end.at), crc: end.crc, size: end.size };
    }
    // Every place up to here is ruled out as its end: it is already larger than it may be.
    if (end || at - AHEAD > most) throw refuse(`${name} is larger than ${maxSize} bytes`);
    searched = Math.max(searched, at - AHEAD + 1);
  }
}

/** The first descriptor starting between `from` and `to` that counts its own offset as its compressed size and is followed by a header. */
function findEnd(buf: Buffer, from: number, to: number): (Reading & { at: number }) | undefined {
  for (const { at, signed } of descriptorStarts(buf, from, to)) {
    const reading = readingsAt(buf, at, signed).find((r) => r.compressed === at && r.followed);
    if (reading) return { ...reading, at };
  }
  return undefined;
}
