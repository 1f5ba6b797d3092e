import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { refuse, unreadable } from './zip-refusal';

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

/**
 * Opens the archive to read its central directory an entry at a time; yauzl checks each entry's
 * sizes as it is read, and the caller closes it.
 */
export function openZip(file: string): Promise<ZipFile> {
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

/** The central directory's entries, refused as soon as there are more than the limits allow. */
export function readEntries(zip: ZipFile, limits: ZipLimits): Promise<Entry[]> {
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

/**
 * The central directory's entries by name, each checked before a byte is written: its name, type
 * and size, no name twice, and the whole within the total the limits allow.
 */
export function checkEntries(entries: Entry[], limits: ZipLimits): Map<string, Entry> {
  let total = 0;
  const byName = new Map<string, Entry>();
  for (const entry of entries) {
    checkEntry(entry, limits);
    if (byName.has(entry.fileName)) throw refuse(`entry "${entry.fileName}" appears twice`);
    byName.set(entry.fileName, entry);
    total += entry.uncompressedSize;
    if (total > limits.maxTotalBytes) throw refuse(`it expands to more than ${limits.maxTotalBytes} bytes`);
  }
  return byName;
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

export async function readSmall(zip: ZipFile, entry: Entry, cap: number): Promise<string> {
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
