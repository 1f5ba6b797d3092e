import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type { Entry } from 'yauzl';
import { StudioError } from '../../../src-shared/studio-error';
import { refuse, unreadable } from './zip-refusal';

/**
 * Bytes read, checked and written at a time, per entry in flight: small enough that the CRC and
 * the write find them still in the CPU's cache after the read, large enough to keep calls few.
 */
export const CHUNK_BYTES = 256 * 1024;

/** Where an entry's data starts: past its local header, whose name and extra lengths are its own. */
async function dataStart(fd: FileHandle, entry: Entry): Promise<number> {
  const header = Buffer.alloc(30);
  const { bytesRead } = await fd.read(header, 0, 30, entry.relativeOffsetOfLocalHeader);
  if (bytesRead !== 30 || header.readUInt32LE(0) !== 0x04034b50)
    throw refuse(`entry "${entry.fileName}" has no local header`);
  return entry.relativeOffsetOfLocalHeader + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/**
 * A stored entry's bytes, a chunk at a time into the caller's buffer, read straight from the
 * archive: no copy beyond the one into `chunk`, which the caller is done with before the next.
 */
export async function* storedChunks(fd: FileHandle, entry: Entry, chunk: Buffer): AsyncGenerator<Buffer> {
  const start = await dataStart(fd, entry);
  for (let at = 0; at < entry.compressedSize;) {
    const want = Math.min(chunk.length, entry.compressedSize - at);
    const { bytesRead } = await fd.read(chunk, 0, want, start + at);
    if (bytesRead !== want) throw refuse(`entry "${entry.fileName}" is cut short`);
    at += want;
    yield chunk.subarray(0, want);
  }
}

/**
 * A deflated entry's bytes, inflated on libuv's thread pool a chunk at a time (a 64 MB entry
 * inflated at once would stall IPC and the UI's answers). Output past the announced size stops
 * it: a lying header cannot balloon memory or disk.
 */
export async function* inflatedChunks(fd: FileHandle, entry: Entry): AsyncGenerator<Buffer> {
  const start = await dataStart(fd, entry);
  // Fresh buffers: inflate may still hold one chunk while the next is read.
  async function* raw(): AsyncGenerator<Buffer> {
    for (let at = 0; at < entry.compressedSize;) {
      const want = Math.min(CHUNK_BYTES, entry.compressedSize - at);
      const data = Buffer.allocUnsafe(want);
      const { bytesRead } = await fd.read(data, 0, want, start + at);
      if (bytesRead !== want) throw refuse(`entry "${entry.fileName}" is cut short`);
      at += want;
      yield data;
    }
  }
  const source = Readable.from(raw());
  const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
  source.on('error', (err) => inflate.destroy(err));
  source.pipe(inflate);
  let size = 0;
  try {
    for await (const data of inflate) {
      size += (data as Buffer).length;
      if (size > entry.uncompressedSize)
        throw refuse(`${entry.fileName} unpacks past the ${entry.uncompressedSize} bytes announced`);
      yield data as Buffer;
    }
  } catch (err) {
    if (err instanceof StudioError) throw err;
    throw unreadable(
      'inflate',
      err,
      `the file "${entry.fileName}" inside it is damaged (it does not unpack to its stated size)`,
    );
  } finally {
    source.unpipe(inflate);
    source.destroy();
    inflate.destroy();
  }
}
