import { createInflateRaw, crc32 } from 'node:zlib';
import { StudioError } from '../../../src-shared/studio-error';
import { ByteSource, StreamCut } from './zip-byte-source';
import { refuse, unreadable } from './zip-refusal';
import { SIG_CENTRAL, SIG_LOCAL } from './zip-stream-records';

/** Bytes handed on at a time: big enough to keep calls few, small enough to stay in cache. */
export const STREAM_CHUNK = 256 * 1024;
/**
 * Compressed bytes given to inflate at a time. Its output is stopped past the entry's allowed size
 * as it comes (the data handler), so a bomb holds at most that much, whatever the step.
 */
const INFLATE_STEP = 1024 * 1024;

const SIG_DESCRIPTOR = 0x08074b50;

/** What an entry's data turned out to be: its CRC-32 and sizes as read, not as announced. */
export interface DataRead {
  crc: number;
  compressed: number;
  size: number;
}

/** A stored entry whose size the local header gives. */
export async function* storedData(src: ByteSource, size: number): AsyncGenerator<Buffer, DataRead> {
  let crc = 0;
  for (let left = size; left > 0;) {
    const data = await src.chunk(Math.min(STREAM_CHUNK, left));
    crc = crc32(data, crc);
    left -= data.length;
    yield data;
  }
  return { crc, compressed: size, size };
}

/**
 * A deflated entry, inflated as it arrives. Its end is where its inflate stream ends (zlib stops
 * taking input there), so a data descriptor after it needs no size; bytes past the end go back to
 * the source. With `compressed` known, the stream must end exactly there. Output past `maxSize`
 * stops it: a bomb or a lying header cannot balloon memory or disk.
 */
export async function* inflatedData(
  src: ByteSource,
  name: string,
  maxSize: number,
  compressed?: number,
): AsyncGenerator<Buffer, DataRead> {
  const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
  const out: Buffer[] = [];
  let size = 0;
  let crc = 0;
  let failure: unknown;
  let ended = false;
  inflate.on('data', (data: Buffer) => {
    size += data.length;
    if (size > maxSize && failure === undefined) {
      failure = refuse(`${name} unpacks past the ${maxSize} bytes it may have`);
      inflate.destroy();
    }
    out.push(data);
  });
  inflate.on('end', () => (ended = true));
  inflate.on('error', (err) => (failure ??= err));
  const fed = (data: Buffer) =>
    new Promise<void>((resolve) => {
      if (inflate.destroyed) return resolve();
      inflate.write(data, () => resolve());
    });
  let taken = 0;
  try {
    for (;;) {
      const want = compressed === undefined ? INFLATE_STEP : Math.min(INFLATE_STEP, compressed - taken);
      if (want === 0) break;
      const input = await src.readUpTo(want);
      const before = inflate.bytesWritten;
      await fed(input);
      if (failure !== undefined) break;
      const used = inflate.bytesWritten - before;
      taken += used;
      for (const data of out.splice(0)) {
        crc = crc32(data, crc);
        yield data;
      }
      // zlib takes every byte it is given until its stream ends: fewer means it ended here.
      if (used < input.length) {
        src.unread(input.subarray(used));
        break;
      }
    }
    if (failure === undefined) {
      inflate.end();
      await new Promise<void>((resolve) => (ended ? resolve() : inflate.once('close', resolve)));
      for (const data of out.splice(0)) {
        crc = crc32(data, crc);
        yield data;
      }
    }
  } finally {
    inflate.destroy();
  }
  if (failure instanceof StudioError || failure instanceof StreamCut) throw failure;
  if (failure !== undefined || !ended)
    throw unreadable('inflate', failure, `the file "${name}" inside it is damaged (it does not unpack)`);
  if (compressed !== undefined && taken !== compressed)
    throw refuse(`${name} ends after ${taken} of its ${compressed} compressed bytes`);
  return { crc, compressed: taken, size };
}

/**
 * A stored entry whose size only its data descriptor tells (bit 3): it ends where a descriptor
 * matches the running CRC and byte count, with or without the descriptor's signature, in 32 or
 * 64 bits, as libarchive and sunzip find it. A candidate is a "PK\x07\x08" (a signed descriptor)
 * or a following header's "PK\x03\x04" / "PK\x01\x02" (an unsigned one just before it); anything
 * else that looks like one is image data, and the CRC says so.
 */
export async function* storedUntilDescriptor(
  src: ByteSource,
  name: string,
  maxSize: number,
): AsyncGenerator<Buffer, DataRead> {
  // A descriptor is at most 24 bytes and the signature after an unsigned one 4 more: that much
  // stays back until the bytes after it have come.
  const HOLD = 28;
  let crc = 0;
  let size = 0;
  let tail: Buffer = Buffer.alloc(0);
  for (;;) {
    let next: Buffer;
    try {
      next = await src.chunk(STREAM_CHUNK);
    } catch (err) {
      if (err instanceof StreamCut) src.unread(tail);
      throw err;
    }
    // Where a descriptor is found: the entry's last bytes in `buf`, and what follows it goes back.
    let buf = next;
    let found: Found | undefined;
    let after: Buffer[] = [];
    if (tail.length && next.length >= 2 * HOLD) {
      // Only where the held bytes meet the new ones is anything joined: the chunk itself is
      // searched and handed on as it came, never copied.
      found = findDescriptor(Buffer.concat([tail, next.subarray(0, HOLD)]), crc, size, tail.length - 1);
      if (found) {
        // What follows the descriptor: from inside the new chunk, or, when the descriptor ended
        // within the held bytes, the rest of those and the whole chunk.
        const end = found.at + found.length;
        after = end >= tail.length ? [next.subarray(end - tail.length)] : [tail.subarray(end), next];
        buf = tail;
      } else {
        crc = crc32(tail, crc);
        size += tail.length;
        yield tail;
      }
    } else if (tail.length) buf = Buffer.concat([tail, next]);
    tail = Buffer.alloc(0);
    if (!found) {
      found = findDescriptor(buf, crc, size, buf.length - HOLD);
      if (found) after = [buf.subarray(found.at + found.length)];
    }
    if (found) {
      if (size + found.at > maxSize) throw refuse(`${name} is larger than ${maxSize} bytes`);
      if (found.at) yield buf.subarray(0, found.at);
      for (const bytes of after.reverse()) src.unread(bytes);
      return { crc: found.crc, compressed: size + found.at, size: size + found.at };
    }
    const emit = Math.max(0, buf.length - HOLD);
    if (emit > 0) {
      const data = buf.subarray(0, emit);
      crc = crc32(data, crc);
      size += emit;
      if (size > maxSize) throw refuse(`${name} is larger than ${maxSize} bytes`);
      yield data;
    }
    // Network chunks are never reused, so the held bytes can stay a view of theirs.
    tail = buf.subarray(emit);
  }
}

interface Found {
  at: number;
  length: number;
  crc: number;
}

/** The first place in `buf` (before `limit`) where a matching descriptor starts, if any. */
function findDescriptor(
  buf: Buffer,
  crcBefore: number,
  sizeBefore: number,
  limit: number,
): Found | undefined {
  const starts: { at: number; signed: boolean }[] = [];
  for (let i = buf.indexOf('PK'); i >= 0; i = buf.indexOf('PK', i + 1)) {
    if (i + 4 > buf.length) break;
    const sig = buf.readUInt32LE(i);
    if (sig === SIG_DESCRIPTOR) starts.push({ at: i, signed: true });
    else if (sig === SIG_LOCAL || sig === SIG_CENTRAL) {
      starts.push({ at: i - 12, signed: false }, { at: i - 20, signed: false });
    }
  }
  starts.sort((a, b) => a.at - b.at);
  let crc = crcBefore;
  let crcAt = 0;
  for (const { at, signed } of starts) {
    if (at < crcAt || at > limit) continue;
    crc = crc32(buf.subarray(crcAt, at), crc);
    crcAt = at;
    const size = sizeBefore + at;
    const length = descriptorLength(buf, at, signed, { crc, compressed: size, size });
    if (length) return { at, length, crc: crc >>> 0 };
  }
  return undefined;
}

/**
 * The length of the data descriptor at `at` in `buf` if it says exactly `read`: with or without
 * its signature, in 32 or 64 bits. An unsigned one counts only where a header follows it at once.
 */
function descriptorLength(buf: Buffer, at: number, signed: boolean, read: DataRead): number | undefined {
  const fields = at + (signed ? 4 : 0);
  if (fields + 12 > buf.length || buf.readUInt32LE(fields) !== read.crc >>> 0) return undefined;
  const headerAt = (end: number) =>
    end + 4 <= buf.length && [SIG_LOCAL, SIG_CENTRAL].includes(buf.readUInt32LE(end));
  const narrow =
    buf.readUInt32LE(fields + 4) === read.compressed && buf.readUInt32LE(fields + 8) === read.size;
  if (narrow && (signed || headerAt(fields + 12))) return fields + 12 - at;
  const wide =
    fields + 20 <= buf.length &&
    buf.readBigUInt64LE(fields + 4) === BigInt(read.compressed) &&
    buf.readBigUInt64LE(fields + 12) === BigInt(read.size);
  if (wide && (signed || headerAt(fields + 20))) return fields + 20 - at;
  return undefined;
}

/** A deflated entry gathered up to its data descriptor, and what the descriptor says of it. */
export interface Gathered {
  compressed: Buffer;
  crc: number;
  size: number;
}

/**
 * A deflated entry whose sizes only its data descriptor tells (bit 3), as Go's archive/zip and
 * other streaming writers emit, gathered whole (into `room`, a buffer kept between entries) so
 * that it can be inflated beside the next ones rather than in order. It ends at the first
 * descriptor, signed or not, 32- or 64-bit, whose compressed size is the bytes gathered before it
 * and that the next header follows at once. That is only where the entry seems to end: inflating
 * it proves it, as its deflate stream must end exactly there and its CRC and size be the
 * descriptor's (or the archive is refused). A false end needs 12 bytes of compressed data to
 * mimic a descriptor that counts its own offset, then a header's signature: no archive meets one.
 */
export async function deflatedUntilDescriptor(
  src: ByteSource,
  name: string,
  maxCompressed: number,
  room: (n: number, kept: number) => Buffer,
): Promise<Gathered> {
  // What a candidate reads past its start: a signed 64-bit descriptor, then the next signature.
  const AHEAD = 28;
  let buf = room(STREAM_CHUNK, 0);
  let at = 0;
  let searched = 0;
  for (;;) {
    const next = await src.chunk(STREAM_CHUNK);
    if (at + next.length > buf.length) buf = room(at + next.length, at);
    next.copy(buf, at);
    at += next.length;
    const found = findEnd(buf.subarray(0, at), searched, at - AHEAD);
    if (found) {
      // What came after the descriptor goes back to the source, copied: `buf` is reused.
      src.unread(Buffer.from(buf.subarray(found.at + found.length, at)));
      return { compressed: buf.subarray(0, found.at), crc: found.crc, size: found.size };
    }
    // Every place up to here is ruled out as its end: it is already larger than it may be.
    if (at - AHEAD > maxCompressed) throw refuse(`${name} is larger than ${maxCompressed} bytes`);
    searched = Math.max(searched, at - AHEAD + 1);
  }
}

/**
 * The first descriptor in `buf` starting between `from` and `to` that counts its own offset as its
 * compressed size, with the next header right after it. `buf` holds only bytes that came.
 */
function findEnd(
  buf: Buffer,
  from: number,
  to: number,
): { at: number; length: number; crc: number; size: number } | undefined {
  const headerAt = (end: number) => [SIG_LOCAL, SIG_CENTRAL].includes(buf.readUInt32LE(end));
  const candidates: { at: number; signed: boolean }[] = [];
  // A candidate starts at a descriptor's signature, or 12 or 20 bytes before a header's.
  for (let i = buf.indexOf('PK', Math.max(0, from)); i >= 0 && i <= to + 20; i = buf.indexOf('PK', i + 1)) {
    const sig = buf.readUInt32LE(i);
    if (sig === SIG_DESCRIPTOR && i <= to) candidates.push({ at: i, signed: true });
    else if (sig === SIG_LOCAL || sig === SIG_CENTRAL)
      for (const back of [12, 20])
        if (i - back >= from && i - back <= to) candidates.push({ at: i - back, signed: false });
  }
  candidates.sort((a, b) => a.at - b.at);
  for (const { at, signed } of candidates) {
    const f = at + (signed ? 4 : 0);
    if (buf.readUInt32LE(f + 4) === at && headerAt(f + 12))
      return { at, length: f + 12 - at, crc: buf.readUInt32LE(f), size: buf.readUInt32LE(f + 8) };
    if (buf.readBigUInt64LE(f + 4) === BigInt(at) && headerAt(f + 20))
      return { at, length: f + 20 - at, crc: buf.readUInt32LE(f), size: Number(buf.readBigUInt64LE(f + 12)) };
  }
  return undefined;
}

/**
 * The data descriptor after a deflated entry with bit 3: its CRC and sizes must be what was just
 * read. Both forms (with and without the signature) and both widths are tried; the one that
 * matches, and is followed by a header, is taken.
 */
export async function readDescriptor(src: ByteSource, name: string, read: DataRead): Promise<void> {
  const head = await src.peek(28);
  const signed = head.length >= 4 && head.readUInt32LE(0) === SIG_DESCRIPTOR;
  const length = descriptorLength(head, 0, signed, read);
  if (length) return void (await src.read(length));
  if (head.length < (signed ? 16 : 12)) throw new StreamCut(src.offset + head.length);
  throw refuse(`the data descriptor of ${name} does not match its data`);
}
