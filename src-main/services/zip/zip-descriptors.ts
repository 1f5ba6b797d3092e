import { crc32 } from './crc32';
import { ByteSource, STREAM_CHUNK, StreamCut, type Borrowed } from './zip-byte-source';
import { GatheredChunks } from './gathered-chunks';
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

/** Bytes read at offsets: one buffer, or a deflated entry's network chunks as they came (GatheredChunks). */
interface Bytes {
  readonly length: number;
  u32(at: number): number;
  /** Where "PK" next starts, at or after `from`; -1 where it does not. */
  nextPK(from: number): number;
}

const inBuffer = (buf: Buffer): Bytes => ({
  length: buf.length,
  u32: (at) => buf.readUInt32LE(at),
  nextPK: (from) => buf.indexOf('PK', from),
});

/** The two readings (32 and 64 bits wide) of a descriptor starting at `at`, as far as `bytes` holds them. */
function readingsAt(bytes: Bytes, at: number, signed: boolean): Reading[] {
  const f = at + (signed ? 4 : 0);
  const followed = (end: number) =>
    end + 4 <= bytes.length && [SIG_LOCAL, SIG_CENTRAL].includes(bytes.u32(end));
  // A 64-bit size as a number, exactly as Number(readBigUInt64LE) rounds it.
  const u64 = (p: number) => bytes.u32(p) + bytes.u32(p + 4) * 2 ** 32;
  const readings: Reading[] = [];
  if (at < 0 || f + 12 > bytes.length) return readings;
  const crc = bytes.u32(f);
  readings.push({
    crc,
    compressed: bytes.u32(f + 4),
    size: bytes.u32(f + 8),
    length: f + 12 - at,
    followed: followed(f + 12),
  });
  if (f + 20 <= bytes.length)
    readings.push({
      crc,
      compressed: u64(f + 4),
      size: u64(f + 12),
      length: f + 20 - at,
      followed: followed(f + 20),
    });
  return readings;
}

/** Where a descriptor may start in `bytes`, from `from` to `to`, in order: at its signature, or 12 or 20 bytes before a header's. */
function descriptorStarts(bytes: Bytes, from: number, to: number): { at: number; signed: boolean }[] {
  const starts: { at: number; signed: boolean }[] = [];
  for (let i = bytes.nextPK(from); i >= 0 && i <= to + 20 && i + 4 <= bytes.length; i = bytes.nextPK(i + 1)) {
    const sig = bytes.u32(i);
    if (sig === SIG_DESCRIPTOR && i <= to) starts.push({ at: i, signed: true });
    else if (sig === SIG_LOCAL || sig === SIG_CENTRAL)
      for (const back of [12, 20])
        if (i - back >= from && i - back <= to) starts.push({ at: i - back, signed: false });
  }
  return starts.sort((a, b) => a.at - b.at);
}

/** The length of the descriptor at `at` if it says exactly `read`. */
function descriptorLength(bytes: Bytes, at: number, signed: boolean, read: DataRead): number | undefined {
  return readingsAt(bytes, at, signed).find(
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
  const bytes = inBuffer(buf);
  for (const { at, signed } of descriptorStarts(bytes, 0, limit)) {
    crc = crc32(buf.subarray(crcAt, at), crc);
    crcAt = at;
    const size = sizeBefore + at;
    const length = descriptorLength(bytes, at, signed, { crc, compressed: size, size });
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
  const length = descriptorLength(inBuffer(head), 0, signed, read);
  if (length) return void (await src.read(length));
  // Fewer bytes than every form and the next signature take: the stream ended within them, and
  // the wider form, not seen whole, may be the one that matches.
  if (head.length < AHEAD) throw new StreamCut(src.offset + head.length);
  throw refuse(`the data descriptor of ${name} does not match its data`);
}

/** A deflated entry gathered up to its data descriptor, and what the descriptor says of it. */
export interface Gathered {
  compressed: Borrowed;
  crc: number;
  size: number;
}

/** The most a deflate stream of `size` bytes takes (zlib's deflateBound): stored blocks add a little. */
export const deflateBound = (size: number) => size + (size >> 12) + (size >> 14) + (size >> 25) + 13;

/**
 * A deflated entry whose sizes only its data descriptor tells, as Go's archive/zip and other
 * streaming writers emit, gathered whole so that it can be inflated beside the next ones rather
 * than in order: borrowed, as the network chunks it came in, given back by the caller once
 * inflated; chunks shorter than JOIN_BELOW joined in `room` (the lane's buffer) as they come
 * (gathered-chunks.ts).
 * It ends at the first descriptor whose compressed size is the bytes gathered before it and that
 * the next header follows at once. That is only where the entry seems to end: inflating it proves
 * it, as its deflate stream must end exactly there and its CRC and size be the descriptor's, or
 * the archive is refused. A false end needs 12 bytes of compressed data to mimic a descriptor
 * counting its own offset, then a header.
 *
 * Where the stream ends or breaks first, what was gathered goes back to the source and the answer
 * is undefined: the entry is then read as it streams (inflatedData), whose inflate stream says
 * where it ends, and so whether its descriptor lies or the stream was cut.
 */
export async function deflatedUntilDescriptor(
  src: ByteSource,
  name: string,
  maxSize: number,
  room?: (n: number) => Buffer,
): Promise<Gathered | undefined> {
  const most = deflateBound(maxSize);
  const chunks = new GatheredChunks(room);
  const release = () => chunks.release();
  let searched = 0;
  try {
    for (;;) {
      try {
        chunks.add(await src.borrowChunk(STREAM_CHUNK));
      } catch (err) {
        if (!(err instanceof StreamCut)) throw err;
        // Copied: the chunks are given back.
        src.unread(chunks.copy(0, chunks.length));
        release();
        return undefined;
      }
      const at = chunks.length;
      const end = findEnd(chunks, searched, at - AHEAD);
      if (end && end.at <= most) {
        // What came after the descriptor goes back to the source, copied: its chunks are lent out.
        src.unread(chunks.copy(end.at + end.length, at));
        const compressed = { views: chunks.viewsUpTo(end.at), bytes: end.at, release };
        return { compressed, crc: end.crc, size: end.size };
      }
      // Every place up to here is ruled out as its end: it is already larger than it may be.
      if (end || at - AHEAD > most) throw refuse(`${name} is larger than ${maxSize} bytes`);
      searched = Math.max(searched, at - AHEAD + 1);
    }
  } catch (err) {
    release();
    throw err;
  }
}

/** The first descriptor starting between `from` and `to` that counts its own offset as its compressed size and is followed by a header. */
function findEnd(bytes: Bytes, from: number, to: number): (Reading & { at: number }) | undefined {
  for (const { at, signed } of descriptorStarts(bytes, from, to)) {
    const reading = readingsAt(bytes, at, signed).find((r) => r.compressed === at && r.followed);
    if (reading) return { ...reading, at };
  }
  return undefined;
}
