import { open, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { crc32, inflateRaw } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { StudioError } from '../../../src-shared/studio-error';
import { logCaught } from '../log/studio-log';
import { zipErrorsSchema, zipManifestSchema, type ZipManifest } from '../gateway/batch-wire';
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

/** Inflates on libuv's thread pool: a 64 MB entry inflated synchronously would stall IPC and the UI's answers. */
const inflateRawAsync = promisify(inflateRaw);

const CRC_SLICE = 1024 * 1024;

/** CRC-32 of an entry a megabyte at a time, letting IPC and timers run between slices. */
async function crcOf(data: Buffer): Promise<number> {
  let crc = 0;
  for (let at = 0; at < data.length; at += CRC_SLICE) {
    crc = crc32(data.subarray(at, at + CRC_SLICE), crc);
    if (at + CRC_SLICE < data.length) await nextTurn();
  }
  return crc >>> 0;
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
 * archive as a stream: memory stays flat whatever its size.
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
      // A few entries at a time keep the disk busy while memory stays at a few images.
      const worker = async () => {
        for (let i = next++; i < manifest.files.length; i = next++) {
          const file = manifest.files[i]!;
          const entry = byName.get(file.filename)!;
          const data = await readEntryData(fd, entry);
          if (data.length !== entry.uncompressedSize) {
            throw refuse(
              `${file.filename} is ${data.length} bytes, not the ${entry.uncompressedSize} announced`,
            );
          }
          if ((await crcOf(data)) !== entry.crc32 >>> 0)
            throw refuse(`${file.filename} fails its CRC-32 check`);
          const sniffed = sniffImageType(data.subarray(0, 16));
          if (!sniffed) throw refuse(`${file.filename} is not a PNG, JPEG or WebP image`);
          const mime = file.mime_type && EXTENSION_OF_MIME[file.mime_type] ? file.mime_type : sniffed;
          if (sniffed !== mime) throw refuse(`${file.filename} is labelled ${mime} but is ${sniffed}`);
          const name = options.nameFor(file.custom_id, file.image_index, EXTENSION_OF_MIME[mime]!);
          await writeFile(join(options.targetDir, name), data, { flag: 'wx' });
          out[i] = {
            customId: file.custom_id,
            imageIndex: file.image_index,
            file: name,
            mime,
            bytes: data.length,
          };
          options.onImage?.(++done, manifest.files.length);
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      return { manifest, errors, images: out };
    } finally {
      await fd.close();
    }
  } finally {
    zip.close();
  }
}

/**
 * One entry's bytes, read with positioned reads: the local header, then the data, inflated when
 * deflated with the output capped at the announced size, so a lying header cannot balloon memory.
 */
async function readEntryData(fd: FileHandle, entry: Entry): Promise<Buffer> {
  const header = Buffer.alloc(30);
  const { bytesRead } = await fd.read(header, 0, 30, entry.relativeOffsetOfLocalHeader);
  if (bytesRead !== 30 || header.readUInt32LE(0) !== 0x04034b50)
    throw refuse(`entry "${entry.fileName}" has no local header`);
  const start = entry.relativeOffsetOfLocalHeader + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const raw = Buffer.allocUnsafe(entry.compressedSize);
  const read = await fd.read(raw, 0, entry.compressedSize, start);
  if (read.bytesRead !== entry.compressedSize) throw refuse(`entry "${entry.fileName}" is cut short`);
  if (entry.compressionMethod === 0) return raw;
  try {
    return await inflateRawAsync(raw, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
  } catch (err) {
    throw unreadable(
      'inflate',
      err,
      `the file "${entry.fileName}" inside it is damaged (it does not unpack to its stated size)`,
    );
  }
}
