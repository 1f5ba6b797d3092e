import { refuse } from './zip-refusal';

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

/** An entry as far as its checks need it, from a local header or the central directory. */
export interface EntryShape {
  fileName: string;
  flags: number;
  method: number;
  /** Unknown (undefined) until its data descriptor, for an entry with bit 3. */
  size?: number;
  compressedSize?: number;
}

/** Only the gateway's layout is accepted: manifest.json, errors.json and files directly under images/. */
export function checkEntry(entry: EntryShape, limits: ZipLimits): void {
  const name = entry.fileName;
  if (name.includes('\0') || name.includes('\\')) throw refuse(`entry "${name}" has a forbidden character`);
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) throw refuse(`entry "${name}" has an absolute path`);
  if (name.split('/').some((part) => part === '..' || part === '.'))
    throw refuse(`entry "${name}" climbs out of its folder`);
  if (entry.flags & 0x1) throw refuse(`entry "${name}" is encrypted`);
  if (entry.method !== 0 && entry.method !== 8) throw refuse(`entry "${name}" uses an unknown compression`);
  if (name === 'images/' || name === 'manifest.json' || name === 'errors.json') return;
  if (!/^images\/[^/]+$/.test(name)) throw refuse(`entry "${name}" is not part of a batch archive`);
  if (entry.size === undefined || entry.compressedSize === undefined) return;
  if (entry.size > limits.maxEntryBytes)
    throw refuse(`entry "${name}" is larger than ${limits.maxEntryBytes} bytes`);
  if (entry.method === 0 && entry.compressedSize !== entry.size)
    throw refuse(`${name} is ${entry.compressedSize} bytes, not the ${entry.size} announced`);
  if (entry.method === 8 && entry.compressedSize > deflatedMost(entry.size))
    throw refuse(
      `${name} is ${entry.compressedSize} bytes compressed, more than ${entry.size} bytes deflate to`,
    );
  checkRatio(name, entry.size, entry.compressedSize, limits);
}

/**
 * The most a deflate stream of `size` bytes may take: its every byte a literal of nine bits (fixed
 * Huffman codes, the costliest an encoder picks), and a little more. An image's compressed bytes
 * are given room before they come (ByteSource.readInto), so a header may not ask for gigabytes.
 */
const deflatedMost = (size: number) => size + Math.ceil(size / 8) + 64 * 1024;

/** A zip bomb compresses far better than any image: refused before, or as soon as, it shows. */
export function checkRatio(name: string, size: number, compressed: number, limits: ZipLimits): void {
  if (size > 1024 * 1024 && size / Math.max(1, compressed) > limits.maxRatio) {
    throw refuse(`entry "${name}" expands ${Math.round(size / Math.max(1, compressed))} times: a zip bomb`);
  }
}
