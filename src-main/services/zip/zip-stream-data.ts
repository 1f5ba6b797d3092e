import { createInflateRaw } from 'node:zlib';
import { crc32 } from './crc32';
import { StudioError } from '../../../src-shared/studio-error';
import { ByteSource, STREAM_CHUNK, StreamCut } from './zip-byte-source';
import { refuse, unreadable } from './zip-refusal';
import { findDescriptor, type Found } from './zip-descriptors';
import type { DataRead } from './zip-stream-records';

/**
 * Compressed bytes given to inflate at a time. Its output is stopped past the entry's allowed size
 * as it comes (the data handler), so a bomb holds at most that much, whatever the step.
 */
const INFLATE_STEP = 1024 * 1024;

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
  // Damaged data destroys the inflate mid-write, and a write cut short that way never calls back:
  // its close ends the wait too.
  const fed = (data: Buffer) =>
    new Promise<void>((resolve) => {
      if (inflate.destroyed) return resolve();
      const done = () => {
        inflate.off('close', done);
        resolve();
      };
      inflate.once('close', done);
      inflate.write(data, done);
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
    // A chunk handed on as a view is never read into again (read-slabs.ts): the held bytes can
    // stay a view of theirs.
    tail = buf.subarray(emit);
  }
}
