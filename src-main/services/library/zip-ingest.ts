import { open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { crc32, createInflateRaw } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { StudioError } from '../../../src-shared/studio-error';
import { logCaught } from '../log/studio-log';
import { zipErrorsSchema, zipManifestSchema, type ZipManifest } from '../gateway/batch-wire';
import { fsyncHandle } from './atomic-file';
import { EXTENSION_OF_MIME, sniffImageType } from './file-names';

export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Uncompressed over compressed: a zip bomb compresses far better than any image. */
  maxRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 1000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 4 * 1024 * 1024 * 1024,
  maxRatio: 50,
};

export interface IngestedImage {
  customId: string;
  imageIndex: number;
  file: string;
  mime: string;
  bytes: number;
}

export interface IngestedZip {
  manifest: ZipManifest;
  errors: { custom_id: string; code: string; message: string }[];
  images: IngestedImage[];
}

const refuse = (message: string) =>
  new StudioError({
    code: 'STUDIO_ZIP_REJECTED',
    message: `The batch archive was refused: ${message}`,
    retryable: true,
  });

/**
 * A refusal in words a designer can read. The parser's own text (yauzl's, zlib's, JSON's) goes to the
 * log for whoever diagnoses it, never into the message on screen.
 */
function unreadable(context: string, err: unknown, words: string): StudioError {
  logCaught(`zip-ingest ${context}`, err);
  return refuse(words);
}

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (err, zip) =>
        err
          ? reject(unreadable('open', err, 'it cannot be read as a ZIP archive; it may be cut short'))
          : resolve(zip),
    ),
  );
}

function readEntries(zip: ZipFile, limits: ZipLimits): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      if (entries.length > limits.maxEntries) {
        reject(refuse(`it has more than ${limits.maxEntries} entries`));
        return;
      }
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (err: Error) => reject(unreadable('entries', err, 'its list of files is damaged')));
    zip.readEntry();
  });
}

/** Only the gateway's layout is accepted: manifest.json, errors.json and files directly under images/. */
function checkEntry(entry: Entry, limits: ZipLimits): void {
  const name = entry.fileName;
  if (name.includes('\0') || name.includes('\\')) throw refuse(`entry "${name}" has a forbidden character`);
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) throw refuse(`entry "${name}" has an absolute path`);
  if (name.split('/').some((part) => part === '..' || part === '.'))
    throw refuse(`entry "${name}" climbs out of its folder`);
  const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
  if (mode === 0o120000) throw refuse(`entry "${name}" is a symbolic link`);
  if (entry.generalPurposeBitFlag & 0x1) throw refuse(`entry "${name}" is encrypted`);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    throw refuse(`entry "${name}" uses an unknown compression`);
  if (name === 'images/' || name === 'manifest.json' || name === 'errors.json') return;
  if (!/^images\/[^/]+$/.test(name)) throw refuse(`entry "${name}" is not part of a batch archive`);
  if (entry.uncompressedSize > limits.maxEntryBytes)
    throw refuse(`entry "${name}" is larger than ${limits.maxEntryBytes} bytes`);
  if (
    entry.uncompressedSize > 1024 * 1024 &&
    entry.uncompressedSize / Math.max(1, entry.compressedSize) > limits.maxRatio
  ) {
    throw refuse(
      `entry "${name}" expands ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} times: a zip bomb`,
    );
  }
}

function entryStream(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) =>
      err
        ? reject(unreadable('entry', err, `the file "${entry.fileName}" inside it cannot be read`))
        : resolve(stream),
    ),
  );
}

async function readSmall(zip: ZipFile, entry: Entry, cap: number): Promise<string> {
  if (entry.uncompressedSize > cap) throw refuse(`${entry.fileName} is larger than ${cap} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of await entryStream(zip, entry)) {
    size += (chunk as Buffer).length;
    if (size > cap) throw refuse(`${entry.fileName} is larger than ${cap} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson<T>(text: string, name: string, parse: (v: unknown) => T): T {
  try {
    return parse(JSON.parse(text));
  } catch (err) {
    throw unreadable(name, err, `${name} is not valid: damaged, or not in the gateway's form`);
  }
}

/**
 * Verifies a batch ZIP and extracts its images into `targetDir` under names the caller chooses,
 * never under names from the archive. Checks, in order: the central directory, every entry's name,
 * type and size before writing a byte, the manifest against the archive and the batch's
 * success_count, then each image's CRC-32, length and type while streaming it to disk. Reads the
 * archive a chunk at a time: memory stays flat whatever its size. Every image is fsynced before
 * this answers, so the publish that follows finds nothing left to flush but the folders.
 */
export async function extractBatchZip(options: {
  zipFile: string;
  targetDir: string;
  expectedSuccessCount?: number;
  nameFor: (customId: string, imageIndex: number, extension: string) => string;
  limits?: ZipLimits;
  onImage?: (done: number, total: number) => void;
  /** Takes keys out of the gateway's text in manifest.json and errors.json, which the library keeps. */
  scrub?: (text: string) => string;
}): Promise<IngestedZip> {
  const scrub = options.scrub ?? ((text: string) => text);
  const limits = options.limits ?? DEFAULT_ZIP_LIMITS;
  const zip = await openZip(options.zipFile);
  try {
    const entries = await readEntries(zip, limits);
    let total = 0;
    const byName = new Map<string, Entry>();
    for (const entry of entries) {
      checkEntry(entry, limits);
      if (byName.has(entry.fileName)) throw refuse(`entry "${entry.fileName}" appears twice`);
      byName.set(entry.fileName, entry);
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) throw refuse(`it expands to more than ${limits.maxTotalBytes} bytes`);
    }
    const manifestEntry = byName.get('manifest.json');
    if (!manifestEntry) throw refuse('manifest.json is missing');
    const manifest = parseJson(
      scrub(await readSmall(zip, manifestEntry, 16 * 1024 * 1024)),
      'manifest.json',
      (v) => zipManifestSchema.parse(v),
    );
    const errorsEntry = byName.get('errors.json');
    const errors = errorsEntry
      ? parseJson(scrub(await readSmall(zip, errorsEntry, 16 * 1024 * 1024)), 'errors.json', (v) =>
          zipErrorsSchema.parse(v),
        )
      : [];

    const images = [...byName.keys()].filter((n) => n.startsWith('images/') && n !== 'images/');
    const listed = new Set(manifest.files.map((f) => f.filename));
    if (manifest.files.length !== manifest.success_count) {
      throw refuse(
        `the manifest lists ${manifest.files.length} files but says ${manifest.success_count} succeeded`,
      );
    }
    if (
      options.expectedSuccessCount !== undefined &&
      manifest.success_count !== options.expectedSuccessCount
    ) {
      throw refuse(
        `the manifest says ${manifest.success_count} images but the batch has ${options.expectedSuccessCount}`,
      );
    }
    if (listed.size !== manifest.files.length) throw refuse('the manifest lists a file twice');
    for (const name of listed)
      if (!byName.has(name)) throw refuse(`the manifest lists ${name}, which the archive lacks`);
    for (const name of images)
      if (!listed.has(name)) throw refuse(`${name} is in the archive but not in the manifest`);

    const fd = await open(options.zipFile, 'r');
    try {
      const out: IngestedImage[] = new Array(manifest.files.length);
      let next = 0;
      let done = 0;
      let failure: unknown;
      const flusher = new Flusher();
      // A few entries at a time, each holding one chunk buffer, so memory stays flat whatever the
      // images weigh; the flusher fsyncs written files behind them.
      const worker = async () => {
        const chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
        for (let i = next++; i < manifest.files.length && failure === undefined; i = next++) {
          const file = manifest.files[i]!;
          const entry = byName.get(file.filename)!;
          const written = await writeEntry(fd, entry, chunk, options.targetDir, flusher, (sniffed) => {
            const mime = file.mime_type && EXTENSION_OF_MIME[file.mime_type] ? file.mime_type : sniffed;
            if (sniffed !== mime) throw refuse(`${file.filename} is labelled ${mime} but is ${sniffed}`);
            return {
              mime,
              name: options.nameFor(file.custom_id, file.image_index, EXTENSION_OF_MIME[mime]!),
            };
          });
          out[i] = {
            customId: file.custom_id,
            imageIndex: file.image_index,
            file: written.name,
            mime: written.mime,
            bytes: written.bytes,
          };
          options.onImage?.(++done, manifest.files.length);
        }
      };
      // Every worker has stopped, and every file is flushed and closed, before a refusal leaves:
      // nothing writes into a folder being removed.
      await Promise.all(
        Array.from({ length: WORKERS }, () =>
          worker().catch((err: unknown) => {
            failure ??= err;
          }),
        ),
      );
      await flusher.drain().catch((err: unknown) => {
        failure ??= err;
      });
      if (failure !== undefined) throw failure;
      return { manifest, errors, images: out };
    } finally {
      await fd.close();
    }
  } finally {
    zip.close();
  }
}

/** Entries in flight at once; more only queue behind libuv's four threads. */
const WORKERS = 4;
/**
 * Bytes read, checked and written at a time, per entry in flight: small enough that the CRC and
 * the write find them still in the CPU's cache after the read, large enough to keep calls few.
 */
const CHUNK_BYTES = 256 * 1024;

/** Files fsynced at once, and written files that may wait for theirs before writers wait too. */
const FLUSHES = 2;
const FLUSH_BACKLOG = 16;

/**
 * Flushes written files behind the writers, a few at a time: the disk writes entry N while entry
 * N+1 is read and checked, where flushing after the extraction would leave the disk idle until
 * then and the CPU idle after. A writer waits only when the backlog is full, so dirty pages never
 * run far ahead of the disk.
 */
class Flusher {
  private waiting: FileHandle[] = [];
  private running = 0;
  private room: (() => void)[] = [];
  private idle: (() => void)[] = [];
  private failure: unknown;

  /** Takes a verified, fully written file; it is closed once flushed. */
  async add(handle: FileHandle): Promise<void> {
    this.waiting.push(handle);
    this.pump();
    while (this.waiting.length + this.running > FLUSH_BACKLOG)
      await new Promise<void>((r) => this.room.push(r));
  }

  private pump(): void {
    while (this.running < FLUSHES && this.waiting.length > 0) {
      const handle = this.waiting.shift()!;
      this.running++;
      void fsyncHandle(handle.fd)
        .catch((err: unknown) => {
          this.failure ??= err;
        })
        .finally(() => handle.close())
        .catch((err: unknown) => logCaught('flushed image close', err))
        .finally(() => {
          this.running--;
          this.room.splice(0).forEach((r) => r());
          this.pump();
          if (this.running === 0 && this.waiting.length === 0) this.idle.splice(0).forEach((r) => r());
        });
    }
  }

  /** Resolves once every file taken is flushed and closed; rejects if any fsync failed. */
  async drain(): Promise<void> {
    if (this.running > 0 || this.waiting.length > 0) await new Promise<void>((r) => this.idle.push(r));
    if (this.failure !== undefined) throw this.failure;
  }
}

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
async function* storedChunks(fd: FileHandle, entry: Entry, chunk: Buffer): AsyncGenerator<Buffer> {
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
async function* inflatedChunks(fd: FileHandle, entry: Entry): AsyncGenerator<Buffer> {
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

/**
 * Streams one entry to its own new file in the target folder, checking as it goes: its type from
 * the first bytes (before the file is named or made), its length and CRC-32 at the end. The file
 * is fsynced before it counts as written, while other entries are still being read. A refusal
 * removes the half-written file.
 */
async function writeEntry(
  fd: FileHandle,
  entry: Entry,
  chunk: Buffer,
  targetDir: string,
  flusher: Flusher,
  nameFor: (sniffed: string) => { mime: string; name: string },
): Promise<{ name: string; mime: string; bytes: number }> {
  if (entry.compressionMethod === 0 && entry.compressedSize !== entry.uncompressedSize) {
    throw refuse(
      `${entry.fileName} is ${entry.compressedSize} bytes, not the ${entry.uncompressedSize} announced`,
    );
  }
  const chunks = entry.compressionMethod === 0 ? storedChunks(fd, entry, chunk) : inflatedChunks(fd, entry);
  let target: { handle: FileHandle; path: string; mime: string; name: string } | undefined;
  let crc = 0;
  let bytes = 0;
  // The file is named and made only once its first bytes tell its type.
  const create = async (first: Buffer) => {
    const sniffed = sniffImageType(first.subarray(0, 16));
    if (!sniffed) throw refuse(`${entry.fileName} is not a PNG, JPEG or WebP image`);
    const { mime, name } = nameFor(sniffed);
    const path = join(targetDir, name);
    return { handle: await open(path, 'wx'), path, mime, name };
  };
  const write = async (file: FileHandle, data: Buffer) => {
    for (let at = 0; at < data.length;) {
      const { bytesWritten } = await file.write(data, at, data.length - at);
      at += bytesWritten;
    }
  };
  // Fewer than 16 first bytes (inflate may hand out a short chunk) are kept until there are more.
  let head: Buffer | undefined;
  try {
    for await (const data of chunks) {
      crc = crc32(data, crc);
      bytes += data.length;
      if (!target) {
        const first = head ? Buffer.concat([head, data]) : data;
        // A copy: the stored reader's chunk buffer is reused for the next read.
        if (first.length < 16) {
          head = Buffer.from(first);
          continue;
        }
        target = await create(first);
        await write(target.handle, first);
        continue;
      }
      await write(target.handle, data);
    }
    if (!target) {
      target = await create(head ?? Buffer.alloc(0));
      await write(target.handle, head ?? Buffer.alloc(0));
    }
    if (bytes !== entry.uncompressedSize) {
      throw refuse(`${entry.fileName} is ${bytes} bytes, not the ${entry.uncompressedSize} announced`);
    }
    if (crc >>> 0 !== entry.crc32 >>> 0) throw refuse(`${entry.fileName} fails its CRC-32 check`);
    const written = { name: target.name, mime: target.mime, bytes };
    const handle = target.handle;
    // Verified whole: from here the flusher owns the file, and a later refusal removes the folder.
    target = undefined;
    await flusher.add(handle);
    return written;
  } catch (err) {
    if (target) {
      await target.handle.close().catch(() => undefined);
      await unlink(target.path).catch((e: unknown) => logCaught('half-written image removal', e));
    }
    throw err;
  }
}
