import { open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { logCaught } from '../log/studio-log';
import { sniffImageType } from '../storage/file-names';
import type { DirectWrites } from './direct-write';
import type { LocalEntry } from './zip-stream-records';
import { refuse } from './zip-refusal';

const SMALL_CAP = 16 * 1024 * 1024;
/**
 * A stored image's chunks are written once this much is gathered: a megabyte and at most one chunk
 * more (at most WHOLE_PIECE). Splitting chunks to send exactly a megabyte measured slower here.
 */
const BATCH = 1024 * 1024;
/**
 * A whole inflated image is written this much at a time, each write sent alone. On Linux 6.x
 * (ext4, this VM), writing it a megabyte at a time cost 1.4–1.5 system CPU-s for a 665 MB archive,
 * against 0.45–0.55 in 256 KB writes; one write of 3 MB cost more still (issue 36).
 */
const WHOLE_PIECE = 256 * 1024;
/**
 * Writes of one file in flight at once. An inflate lane hands on its image's pieces as views of
 * one buffer, each piece its own bytes, so its writes can overlap: with one at a time, a lane's
 * inflate stopped while its last megabyte was written, and on two cores the lanes spent a tenth of
 * their time so (a 660 MB deflated archive: 2.13–2.15 s against 2.23, 10 alternating runs, for
 * issue 36; three at once measured no better than two).
 */
const IN_FLIGHT = 2;

/** A file being written for an entry: what a refusal or a cut removes. */
export interface PartFile {
  handle: FileHandle;
  path: string;
}

export interface Sink {
  kind: 'image' | 'small' | 'none';
  write(data: Buffer, file: PartFile | undefined): Promise<PartFile | undefined>;
  /** An image's bytes, all of them at once (an inflate lane's output): past the page cache where it can be (direct-write.ts). */
  writeWhole(data: Buffer): Promise<PartFile | undefined>;
  finish(file: PartFile | undefined): Promise<{ handle: FileHandle; path: string; mime: string } | undefined>;
}

/** Where an entry's bytes go: an image to its own new file, the two JSON files to memory. */
export function sinkFor(
  entry: LocalEntry,
  dir: string,
  index: number,
  small: Map<string, string>,
  direct?: DirectWrites,
): Sink {
  const name = entry.fileName;
  if (name === 'manifest.json' || name === 'errors.json') {
    const parts: Buffer[] = [];
    let size = 0;
    const write = async (data: Buffer) => {
      size += data.length;
      if (size > SMALL_CAP) throw refuse(`${name} is larger than ${SMALL_CAP} bytes`);
      parts.push(Buffer.from(data));
      return undefined;
    };
    return {
      kind: 'small',
      write,
      writeWhole: write,
      finish: async () => {
        small.set(name, Buffer.concat(parts).toString('utf8'));
        return undefined;
      },
    };
  }
  if (name === 'images/') {
    const write = async (): Promise<undefined> => {
      throw refuse('the images/ folder entry holds data');
    };
    return { kind: 'none', write, writeWhole: write, finish: async () => undefined };
  }
  // The first bytes say the type, before the file is made; fewer than 16 wait for more.
  let head: Buffer | undefined;
  let mime = '';
  const path = join(dir, `entry-${index}.part`);
  let writer: BatchedWriter | undefined;
  const sniff = (first: Buffer) => {
    const sniffed = sniffImageType(first.subarray(0, 16));
    if (!sniffed) throw refuse(`${name} is not a PNG, JPEG or WebP image`);
    mime = sniffed;
  };
  const create = async (first: Buffer) => {
    sniff(first);
    const file = { handle: await open(path, 'wx'), path };
    writer = new BatchedWriter(file.handle);
    return file;
  };
  return {
    kind: 'image',
    async writeWhole(data) {
      if (data.length >= 16 && direct) {
        sniff(data);
        const handle = await direct.writeNew(path, data);
        // Written whole: finish has nothing left to send.
        if (handle) return { handle, path };
      }
      return this.write(data, undefined);
    },
    async write(data, file) {
      if (file) {
        await writer!.write(data);
        return file;
      }
      const first = head ? Buffer.concat([head, data]) : data;
      if (first.length < 16) {
        head = Buffer.from(first);
        return undefined;
      }
      head = undefined;
      const made = await create(first);
      await writer!.write(first);
      return made;
    },
    async finish(file) {
      const done = file ?? (await create(head ?? Buffer.alloc(0)));
      if (!file && head) await writer!.write(head);
      await writer?.end();
      return { ...done, mime };
    },
  };
}

/**
 * Writes gathered a megabyte at a time in one writev, two in flight while the next is gathered:
 * a network's small chunks, each written on its own and waited for, would leave the disk idle
 * between them and hold the stream back.
 */
class BatchedWriter {
  private gathered: Buffer[] = [];
  private bytes = 0;
  private position = 0;
  private inFlight: Promise<void>[] = [];
  private failure: unknown;

  constructor(private handle: FileHandle) {}

  async write(data: Buffer): Promise<void> {
    if (data.length > WHOLE_PIECE) {
      // A whole inflated image: after what was gathered, a piece at a time (WHOLE_PIECE).
      await this.send();
      for (let at = 0; at < data.length; at += WHOLE_PIECE) {
        this.gathered.push(data.subarray(at, at + WHOLE_PIECE));
        this.bytes = Math.min(WHOLE_PIECE, data.length - at);
        await this.send();
      }
      return;
    }
    this.gathered.push(data);
    this.bytes += data.length;
    if (this.bytes >= BATCH) await this.send();
  }

  async end(): Promise<void> {
    await this.send();
    await Promise.all(this.inFlight);
    if (this.failure !== undefined) throw this.failure;
  }

  private async send(): Promise<void> {
    const buffers = this.gathered;
    const at = this.position;
    this.position += this.bytes;
    this.gathered = [];
    this.bytes = 0;
    while (this.inFlight.length >= IN_FLIGHT) await this.inFlight.shift();
    if (this.failure !== undefined) throw this.failure;
    // Caught here and thrown at the next write: a write still going when the entry is refused and
    // its file closed must not become an unhandled rejection.
    if (buffers.length)
      this.inFlight.push(
        writeAt(this.handle, buffers, at).catch((err: unknown) => {
          this.failure = err;
        }),
      );
  }
}

async function writeAt(handle: FileHandle, buffers: Buffer[], at: number): Promise<void> {
  let left = buffers;
  for (let position = at; left.length;) {
    const { bytesWritten } = await handle.writev(left, position);
    position += bytesWritten;
    // A short write (rare on a file) goes on from where it stopped.
    let skip = bytesWritten;
    while (left.length && skip >= left[0]!.length) skip -= left.shift()!.length;
    if (left.length && skip) left = [left[0]!.subarray(skip), ...left.slice(1)];
  }
}

export async function discard(file: PartFile): Promise<void> {
  await file.handle.close().catch(() => undefined);
  await unlink(file.path).catch((e: unknown) => logCaught('half-written image removal', e));
}
