import { rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { zipErrorsSchema, zipManifestSchema } from '../gateway/batch-wire';
import { logCaught } from '../log/studio-log';
import { sweepBuffersAtOnce, withRoomForSlabs } from './ingest-heap';
import { DirectWrites } from './direct-write';
import { Flusher } from './file-flusher';
import { EXTENSION_OF_MIME } from '../storage/file-names';
import { CheckFailed, inflatePieces, InflatePool, type Lane } from './inflate-pool';
import { discard, sinkFor, type PartFile, type Sink } from './zip-entry-sink';
import { ByteSource, StreamCut } from './zip-byte-source';
import { checkEntry, checkRatio, DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip-entries';
import type { IngestedImage, IngestedZip } from './zip-ingest';
import { refuse, unreadable } from './zip-refusal';
import { deflatedUntilDescriptor, readDescriptor } from './zip-descriptors';
import { inflatedData, storedData, storedUntilDescriptor } from './zip-stream-data';
import {
  crossCheck,
  readCentralDirectory,
  readLocalHeader,
  SIG_CENTRAL,
  SIG_LOCAL,
  type DataRead,
  type LocalEntry,
} from './zip-stream-records';

/** An image entry written and verified, under its temporary name until the manifest names it. */
export interface VerifiedImage {
  /** Its name in the archive, which only says which row it is; the file is never named by it. */
  entryName: string;
  path: string;
  mime: string;
  bytes: number;
}

export interface StreamIngestOptions {
  /** The archive's bytes from `from` on: 0 first, then where a cut stream is resumed (HTTP Range); undefined where it cannot be. */
  open(from: number): Promise<AsyncIterable<Uint8Array> | undefined>;
  targetDir: string;
  expectedSuccessCount?: number;
  nameFor: (customId: string, imageIndex: number, extension: string) => string;
  limits?: ZipLimits;
  scrub?: (text: string) => string;
  /** Bytes of the archive read, and images verified, as they go. */
  onProgress?: (bytes: number, images: number) => void;
  /** Filled as images verify: what a fallback may keep when the stream cannot be finished. */
  verified?: VerifiedImage[];
  /** Resumptions of a cut stream before it counts as cut for good. */
  maxResumes?: number;
}

type Streamed = LocalEntry & { crc: number; compressedSize: number; size: number };

/**
 * Verifies a batch ZIP and extracts its images as it arrives, with no copy of the archive on disk.
 * Each entry is checked as it streams (name, type, size, CRC-32, and its data descriptor where bit
 * 3 defers them); the central directory at the end is checked against everything the stream had,
 * then the manifest against the images, and only then are the images given the names the caller
 * chooses. Every image is fsynced before this answers. A cut stream is resumed from the entry it
 * cut; a refusal removes every file it wrote.
 */
export async function ingestBatchZip(options: StreamIngestOptions): Promise<IngestedZip> {
  sweepBuffersAtOnce();
  return withRoomForSlabs(() => ingest(options));
}

async function ingest(options: StreamIngestOptions): Promise<IngestedZip> {
  const limits = options.limits ?? DEFAULT_ZIP_LIMITS;
  const scrub = options.scrub ?? ((text: string) => text);
  const verified = options.verified ?? [];
  const first = await options.open(0);
  if (!first) throw refuse('it could not be fetched');
  const src = new ByteSource(first);
  const streamed: Streamed[] = [];
  const small = new Map<string, string>();
  const flusher = new Flusher();
  const direct = new DirectWrites(options.targetDir);
  const inflating = new InflatePool();
  let partial: PartFile | undefined;
  const names = new Set<string>();
  let total = 0;
  let resumes = 0;
  // Set only when a cut stream could not be resumed: what verified is kept for the fallback.
  let cutForGood = false;
  let reading: string | undefined;
  /** Counts an entry's bytes against the archive's limit. */
  const count = (bytes: number) => {
    total += bytes;
    if (total > limits.maxTotalBytes) throw refuse(`it expands to more than ${limits.maxTotalBytes} bytes`);
  };
  /** An image whose bytes verified: flushed, and kept for the manifest to name. */
  const keep = async (
    entryName: string,
    done: { handle: FileHandle; path: string; mime: string },
    bytes: number,
  ) => {
    await flusher.add(done.handle);
    verified.push({ entryName, path: done.path, mime: done.mime, bytes });
    options.onProgress?.(src.offset, verified.length);
  };
  /**
   * An image inflated on the pool from its compressed bytes in the lane, checked against the CRC-32
   * recorded as its output is handed on, and written as it comes (inflatePieces).
   */
  const inflateBeside = async (known: Streamed, compressed: Buffer, lane: Lane, sink: Sink) => {
    let file: PartFile | undefined;
    let bytes = 0;
    try {
      for await (const piece of inflatePieces(compressed, known.size, known.fileName, lane, known.crc)) {
        bytes += piece.length;
        // The whole image in one piece (the usual case): written from the lane as it is.
        file =
          !file && piece.length === known.size ? await sink.writeWhole(piece) : await sink.write(piece, file);
      }
      const read = { crc: known.crc, compressed: compressed.length, size: bytes };
      checkRead(known, read, limits);
      const done = (await sink.finish(file))!;
      file = undefined;
      await keep(known.fileName, done, read.size);
    } catch (err) {
      // Not the bytes recorded: refused in the words checkRead gives a CRC that differs.
      if (err instanceof CheckFailed)
        checkRead(known, { crc: ~known.crc, compressed: compressed.length, size: bytes }, limits);
      throw err;
    } finally {
      if (file) await discard(file);
    }
  };
  /** An entry read to its end, for the central directory's cross-check. */
  const whole = (entry: LocalEntry, read: DataRead) => {
    streamed.push({ ...entry, crc: read.crc, compressedSize: read.compressed, size: read.size });
    reading = undefined;
  };
  try {
    for (;;) {
      // Where the stream would be resumed from: the entry being read, or the directory.
      let restart = src.offset;
      let totalBefore = total;
      try {
        for (;;) {
          restart = src.offset;
          totalBefore = total;
          const sig = await src.signature();
          if (sig !== SIG_LOCAL) {
            if (streamed.length === 0 && src.offset === 0 && sig !== SIG_CENTRAL)
              throw notZip(await src.peek(200), scrub);
            break;
          }
          const entry = await readLocalHeader(src);
          checkEntry(entry, limits);
          if (streamed.length >= limits.maxEntries)
            throw refuse(`it has more than ${limits.maxEntries} entries`);
          if (names.has(entry.fileName)) throw refuse(`entry "${entry.fileName}" appears twice`);
          names.add(entry.fileName);
          reading = entry.fileName;
          const sink = sinkFor(entry, options.targetDir, streamed.length, small, direct);
          if (entry.method === 8 && sink.kind === 'image') {
            // Inflated beside the next entries (inflate-pool.ts): read whole where the header gives
            // the sizes, else gathered up to its data descriptor. The task checks what it inflated
            // against the sizes and CRC recorded here.
            const beside = await inflating.run(
              async (lane) => {
                let known: Streamed;
                let compressed: Buffer;
                if (entry.size !== undefined) {
                  count(entry.size);
                  known = entry as Streamed;
                  const n = entry.compressedSize!;
                  compressed = await src.readInto(n, lane.input(n));
                } else {
                  const got = await deflatedUntilDescriptor(
                    src,
                    entry.fileName,
                    limits.maxEntryBytes,
                    (n, kept) => lane.grow(n, kept),
                  );
                  if (!got) return undefined;
                  known = { ...entry, crc: got.crc, size: got.size, compressedSize: got.compressed.length };
                  checkEntry(known, limits);
                  count(got.size);
                  compressed = got.compressed;
                }
                // Read to its end: recorded for the cross-check now, in the stream's order.
                whole(known, { crc: known.crc, compressed: known.compressedSize, size: known.size });
                return { known, compressed };
              },
              ({ known, compressed }, lane) => inflateBeside(known, compressed, lane, sink),
            );
            if (beside) {
              options.onProgress?.(src.offset, verified.length);
              continue;
            }
          }
          const data = entryData(src, entry, limits);
          let read: DataRead;
          for (;;) {
            const next = await data.next();
            if (next.done) {
              read = next.value;
              break;
            }
            count(next.value.length);
            partial = await sink.write(next.value, partial);
            options.onProgress?.(src.offset, verified.length);
          }
          if (entry.flags & 0x8 && entry.method === 8) await readDescriptor(src, entry.fileName, read);
          checkRead(entry, read, limits);
          const done = await sink.finish(partial);
          partial = undefined;
          if (done) await keep(entry.fileName, done, read.size);
          whole(entry, read);
        }
        restart = src.offset;
        await inflating.drain();
        const { entries } = await readCentralDirectory(src, limits.maxEntries);
        crossCheck(streamed, entries);
        break;
      } catch (err) {
        if (!(err instanceof StreamCut)) throw err;
        if (partial) await discard(partial);
        partial = undefined;
        total = totalBefore;
        // The entry that was cut is read again, whole, from the resumed stream.
        if (reading) names.delete(reading);
        reading = undefined;
        logCaught('batch ZIP stream cut', err.cause ?? err);
        const more =
          resumes++ < (options.maxResumes ?? 3)
            ? await options.open(restart).catch(() => undefined)
            : undefined;
        if (!more) {
          cutForGood = true;
          throw refuse('it was cut short before its end');
        }
        src.resume(more, restart);
      }
    }
    await flusher.drain();
    return await publishImages(options, verified, small, scrub);
  } catch (err) {
    if (partial) await discard(partial);
    await inflating.settle();
    // A refusal leaves nothing behind; a cut leaves what verified, for the fallback to keep.
    await flusher.drain().catch((e: unknown) => logCaught('flush after a refused ZIP', e));
    if (!cutForGood) {
      for (const image of verified.splice(0)) await unlink(image.path).catch(() => undefined);
    }
    throw err;
  } finally {
    await src.close();
  }
}

/** An entry's data, by how its end is known. */
function entryData(src: ByteSource, entry: LocalEntry, limits: ZipLimits): AsyncGenerator<Buffer, DataRead> {
  const max = limits.maxEntryBytes;
  if (entry.method === 8) return inflatedData(src, entry.fileName, entry.size ?? max, entry.compressedSize);
  if (entry.flags & 0x8) return storedUntilDescriptor(src, entry.fileName, max);
  return storedData(src, entry.compressedSize!);
}

/** What was read, against what the local header announced (when it did) and the limits. */
function checkRead(entry: LocalEntry, read: DataRead, limits: ZipLimits): void {
  const name = entry.fileName;
  // Sizes and CRC from a data descriptor (bit 3): it is the descriptor that lies.
  const fromDescriptor = entry.flags & 0x8 && entry.crc !== undefined;
  if (fromDescriptor && (read.size !== entry.size || read.crc >>> 0 !== entry.crc! >>> 0))
    throw refuse(`the data descriptor of ${name} does not match its data`);
  if (entry.size !== undefined && read.size !== entry.size)
    throw refuse(`${name} is ${read.size} bytes, not the ${entry.size} announced`);
  if (entry.crc !== undefined && read.crc >>> 0 !== entry.crc >>> 0)
    throw refuse(`${name} fails its CRC-32 check`);
  if (read.size > limits.maxEntryBytes)
    throw refuse(`entry "${name}" is larger than ${limits.maxEntryBytes} bytes`);
  if (entry.method === 8) checkRatio(name, read.size, read.compressed, limits);
}

/** The start of something that is not a ZIP (a JSON error sent as one), in words. */
function notZip(start: Buffer, scrub: (text: string) => string) {
  const text = scrub(start.toString('utf8'))
    .replace(/[^\x20-\x7e\u00a0-\uffff]/g, '')
    .trim()
    .slice(0, 160);
  return refuse(`it cannot be read as a ZIP archive${text ? `; it begins: ${text}` : ''}`);
}

function parseJson<T>(text: string | undefined, name: string, parse: (v: unknown) => T): T {
  try {
    return parse(JSON.parse(text!));
  } catch (err) {
    throw unreadable(name, err, `${name} is not valid: damaged, or not in the gateway's form`);
  }
}

/** The manifest against the archive, then each image renamed to the name the caller chose. */
async function publishImages(
  options: StreamIngestOptions,
  verified: VerifiedImage[],
  small: Map<string, string>,
  scrub: (text: string) => string,
): Promise<IngestedZip> {
  if (!small.has('manifest.json')) throw refuse('manifest.json is missing');
  const manifest = parseJson(scrub(small.get('manifest.json')!), 'manifest.json', (v) =>
    zipManifestSchema.parse(v),
  );
  const errors = small.has('errors.json')
    ? parseJson(scrub(small.get('errors.json')!), 'errors.json', (v) => zipErrorsSchema.parse(v))
    : [];
  if (manifest.files.length !== manifest.success_count)
    throw refuse(
      `the manifest lists ${manifest.files.length} files but says ${manifest.success_count} succeeded`,
    );
  if (options.expectedSuccessCount !== undefined && manifest.success_count !== options.expectedSuccessCount)
    throw refuse(
      `the manifest says ${manifest.success_count} images but the batch has ${options.expectedSuccessCount}`,
    );
  const byName = new Map(verified.map((v) => [v.entryName, v]));
  const listed = new Set(manifest.files.map((f) => f.filename));
  if (listed.size !== manifest.files.length) throw refuse('the manifest lists a file twice');
  for (const name of listed)
    if (!byName.has(name)) throw refuse(`the manifest lists ${name}, which the archive lacks`);
  for (const name of byName.keys())
    if (!listed.has(name)) throw refuse(`${name} is in the archive but not in the manifest`);
  const images: IngestedImage[] = [];
  const named = manifest.files.map((file) => {
    const image = byName.get(file.filename)!;
    const mime = file.mime_type && EXTENSION_OF_MIME[file.mime_type] ? file.mime_type : image.mime;
    if (image.mime !== mime) throw refuse(`${file.filename} is labelled ${mime} but is ${image.mime}`);
    return {
      file,
      image,
      name: options.nameFor(file.custom_id, file.image_index, EXTENSION_OF_MIME[mime]!),
      mime,
    };
  });
  for (const { file, image, name, mime } of named) {
    // Renamed within the folder: the publish that follows fsyncs the folder itself.
    await rename(image.path, join(options.targetDir, name));
    images.push({
      customId: file.custom_id,
      imageIndex: file.image_index,
      file: name,
      mime,
      bytes: image.bytes,
    });
  }
  return { manifest, errors, images };
}
