import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, statfs, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { logCaught } from '../log/studio-log';

/**
 * Whole inflated images written past the page cache (Linux's O_DIRECT), from the inflate lane's
 * own page-aligned buffer straight to the disk. Every image is fsynced before it is published, so
 * the cache's copy held nothing the studio waits on, and a download of hundreds of MB no longer
 * pushes the user's other files out of the cache. The copy is CPU the inflate needs: 665 MB of
 * images written and fsynced by three writers took 1.0–1.2 system CPU-s through the cache against
 * 0.14–0.3 past it (this VM, ext4, measured for issue 36). In whole ingests on two cores, 0.37–0.42
 * system CPU-s against 0.5–0.55, the same wall time, and against 0.7–1.7 at times when this VM made
 * every fresh page-cache page slow to fill (2.31–2.49 s against 2.42–2.81, runs minutes apart). Not on macOS or Windows
 * (Node has no way to ask there), not on a network share, and not where a probe write is refused:
 * there images are written as before.
 */
const O_DIRECT: number | undefined = process.platform === 'linux' ? constants.O_DIRECT : undefined;

/** What O_DIRECT asks of a write's memory, length and place in the file: whole blocks (a page covers every disk's). */
const BLOCK = 4096;
/** Written a megabyte at a time, two at once: 256 KB writes took a third more system time, one 3 MB write no less wall time. */
const PIECE = 1024 * 1024;
const IN_FLIGHT = 2;

/**
 * Local Linux file systems whose O_DIRECT has long been settled (`statfs` types): ext2/3/4 and XFS.
 * On an NFS or SMB share each direct write would be a round trip to the server, with no write-behind.
 */
const DIRECT_TYPES = new Set([0xef53, 0x58465342]);

/**
 * WebAssembly's memory, where this process has it: not under `--jitless` (Node's flag, or
 * Electron's `--js-flags`), which leaves no WebAssembly at all. Node's types declare its namespace
 * for types only.
 */
type MemoryClass = new (size: { initial: number }) => { buffer: ArrayBuffer };
const wasmMemory = (): MemoryClass | undefined =>
  (globalThis as { WebAssembly?: { Memory?: MemoryClass } }).WebAssembly?.Memory;

/** Buffers whose memory starts on a page: only those can be written directly. */
const pageAligned = new WeakSet<ArrayBufferLike>();

/**
 * A buffer of at least `n` bytes; where direct writes are possible, in WebAssembly memory, which V8
 * maps by whole pages, so that it starts on one (a Buffer's own memory may start anywhere).
 */
export function laneBuffer(n: number): Buffer<ArrayBuffer> {
  const Memory = O_DIRECT === undefined ? undefined : wasmMemory();
  if (Memory) {
    try {
      const memory = new Memory({ initial: Math.ceil(n / 65536) });
      pageAligned.add(memory.buffer);
      return Buffer.from(memory.buffer, 0, n);
    } catch (err) {
      // Address space refused (a 32-bit or constrained process): an ordinary buffer, written as before.
      logCaught('page-aligned buffer', err);
    }
  }
  return Buffer.allocUnsafe(n);
}

const FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (O_DIRECT ?? 0);

/** Where a folder's images may be written directly: asked once of the folder, by its file system and a probe write. */
export class DirectWrites {
  private usable: Promise<boolean> | undefined;

  constructor(private readonly dir: string) {}

  /**
   * `data` (an image, whole) written to a new file at `path` past the page cache, padded to a whole
   * block then cut back to its length; the handle is left open for the flusher's fsync. Undefined,
   * with no file left behind, where it cannot be: the caller then writes it as before.
   */
  async writeNew(path: string, data: Buffer): Promise<FileHandle | undefined> {
    const padded = Math.ceil(data.length / BLOCK) * BLOCK;
    if (
      !pageAligned.has(data.buffer) ||
      data.byteOffset % BLOCK !== 0 ||
      data.byteOffset + padded > data.buffer.byteLength ||
      !(await (this.usable ??= probe(this.dir)))
    )
      return undefined;
    let handle: FileHandle;
    try {
      handle = await open(path, FLAGS, 0o666);
    } catch (err) {
      if (!refusesDirect(err)) throw err;
      // Linux makes the file before it refuses O_DIRECT: gone, so the write as before can make it.
      await removeMade(path);
      this.usable = Promise.resolve(false);
      return undefined;
    }
    try {
      // The padding is lane memory past the image (the previous image's bytes), cut off below.
      await writePieces(handle, Buffer.from(data.buffer, data.byteOffset, padded));
      await handle.truncate(data.length);
      return handle;
    } catch (err) {
      await handle.close().catch(() => undefined);
      await unlink(path).catch((e: unknown) => logCaught('direct image write removal', e));
      if (!refusesDirect(err)) throw err;
      // A file system that took the probe and refused this write: this folder is written as before.
      logCaught('direct image write', err);
      this.usable = Promise.resolve(false);
      return undefined;
    }
  }
}

const refusesDirect = (err: unknown): boolean =>
  (err as NodeJS.ErrnoException | undefined)?.code === 'EINVAL';

async function writePieces(handle: FileHandle, bytes: Buffer): Promise<void> {
  const inFlight: Promise<void>[] = [];
  let failure: unknown;
  for (let at = 0; at < bytes.length && failure === undefined; at += PIECE) {
    while (inFlight.length >= IN_FLIGHT) await inFlight.shift();
    // Caught at once and thrown after the others settle: none may become an unhandled rejection.
    inFlight.push(
      writeFully(handle, bytes.subarray(at, at + PIECE), at).catch((err: unknown) => {
        failure ??= err;
      }),
    );
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
}

async function writeFully(handle: FileHandle, bytes: Buffer, position: number): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    // A short direct write is a disk filling up. Said so here: going on from where it stopped, off a
    // block, would be refused as EINVAL and read as a file system that takes no direct writes.
    if (bytesWritten < bytes.length - done)
      throw Object.assign(new Error(`the disk took ${bytesWritten} of ${bytes.length - done} bytes`), {
        code: 'ENOSPC',
      });
    done += bytesWritten;
  }
}

/** Whether the folder's file system takes direct writes: by its type, then one block written and removed. */
async function probe(dir: string): Promise<boolean> {
  if (O_DIRECT === undefined) return false;
  try {
    if (!DIRECT_TYPES.has((await statfs(dir)).type >>> 0)) return false;
    const path = join(dir, `.direct-probe-${randomBytes(6).toString('hex')}`);
    const handle = await open(path, FLAGS, 0o666).catch(async (err: unknown) => {
      await removeMade(path);
      throw err;
    });
    try {
      await handle.write(laneBuffer(BLOCK), 0, BLOCK, 0);
    } finally {
      await handle.close().catch(() => undefined);
      await unlink(path).catch((e: unknown) => logCaught('direct write probe removal', e));
    }
    return true;
  } catch (err) {
    if (!refusesDirect(err)) logCaught('direct write probe', err);
    return false;
  }
}

/** Removes a file an open refused after making it; none there is fine. */
async function removeMade(path: string): Promise<void> {
  await unlink(path).catch((e: unknown) => {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') logCaught('refused direct open removal', e);
  });
}
