import { open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Entry } from 'yauzl';
import { logCaught } from '../log/studio-log';
import { zipErrorsSchema, zipManifestSchema, type ZipManifest } from '../gateway/batch-wire';
import { Flusher } from './file-flusher';
import { EXTENSION_OF_MIME, sniffImageType } from './file-names';
import {
  checkEntries,
  DEFAULT_ZIP_LIMITS,
  openZip,
  readEntries,
  readSmall,
  type ZipLimits,
} from './zip-entries';
import { CHUNK_BYTES, inflatedChunks, storedChunks } from './zip-entry-bytes';
import { refuse, unreadable } from './zip-refusal';

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
    const byName = checkEntries(await readEntries(zip, limits), limits);
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
