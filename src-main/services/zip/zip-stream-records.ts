import type { ByteSource } from './zip-byte-source';
import { refuse } from './zip-refusal';

export const SIG_LOCAL = 0x04034b50;
export const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_END64 = 0x06064b50;
const SIG_LOCATOR64 = 0x07064b50;
const MAX32 = 0xffffffff;

/** What an entry's data turned out to be: its CRC-32 and sizes as read, not as announced. */
export interface DataRead {
  crc: number;
  compressed: number;
  size: number;
}

/** An entry as its local header announces it; sizes and CRC are unknown (undefined) with bit 3. */
export interface LocalEntry {
  offset: number;
  fileName: string;
  flags: number;
  method: number;
  crc?: number;
  compressedSize?: number;
  size?: number;
}

/** An entry as the central directory lists it. */
export interface CentralEntry {
  offset: number;
  fileName: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** The Unix mode, where the archive has one (a symbolic link is refused). */
  mode: number;
}

/** The zip64 extra field's values, in its fixed order, for the fields that were 0xFFFFFFFF. */
function zip64(extra: Buffer, wanted: ('size' | 'compressed' | 'offset')[]): Partial<Record<string, number>> {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      const values: Partial<Record<string, number>> = {};
      wanted.forEach((name, i) => {
        if (at + 4 + i * 8 + 8 <= extra.length) values[name] = Number(extra.readBigUInt64LE(at + 4 + i * 8));
      });
      return values;
    }
    at += 4 + length;
  }
  return {};
}

/** The local header at the source's position (its signature already checked by the caller). */
export async function readLocalHeader(src: ByteSource): Promise<LocalEntry> {
  const offset = src.offset;
  const h = await src.read(30);
  const flags = h.readUInt16LE(6);
  const nameBytes = await src.read(h.readUInt16LE(26));
  const extra = await src.read(h.readUInt16LE(28));
  const fileName = nameBytes.toString(flags & 0x800 ? 'utf8' : 'latin1');
  const entry: LocalEntry = { offset, fileName, flags, method: h.readUInt16LE(8) };
  if (flags & 0x8) return entry;
  let compressedSize = h.readUInt32LE(18);
  let size = h.readUInt32LE(22);
  if (compressedSize === MAX32 || size === MAX32) {
    const wide = zip64(extra, ['size', 'compressed']);
    size = wide.size ?? size;
    compressedSize = wide.compressed ?? compressedSize;
  }
  return { ...entry, crc: h.readUInt32LE(14), compressedSize, size };
}

/**
 * The central directory and its end records, read to the last byte: `maxEntries` bounds it, and
 * any byte after the end record (and its comment) is refused, since nothing may hide there.
 */
export async function readCentralDirectory(
  src: ByteSource,
  maxEntries: number,
): Promise<{ entries: CentralEntry[]; start: number; end: { count: number; size: number; offset: number } }> {
  const start = src.offset;
  const entries: CentralEntry[] = [];
  for (;;) {
    const sig = await src.signature();
    if (sig !== SIG_CENTRAL) break;
    if (entries.length >= maxEntries) throw refuse(`it has more than ${maxEntries} entries`);
    const h = await src.read(46);
    const flags = h.readUInt16LE(8);
    const name = await src.read(h.readUInt16LE(28));
    const extra = await src.read(h.readUInt16LE(30));
    await src.read(h.readUInt16LE(32));
    let size = h.readUInt32LE(24);
    let compressedSize = h.readUInt32LE(20);
    let offset = h.readUInt32LE(42);
    const wanted = (
      [
        ['size', size],
        ['compressed', compressedSize],
        ['offset', offset],
      ] as const
    )
      .filter(([, v]) => v === MAX32)
      .map(([k]) => k);
    if (wanted.length) {
      const wide = zip64(extra, wanted);
      size = wide.size ?? size;
      compressedSize = wide.compressed ?? compressedSize;
      offset = wide.offset ?? offset;
    }
    entries.push({
      offset,
      fileName: name.toString(flags & 0x800 ? 'utf8' : 'latin1'),
      flags,
      method: h.readUInt16LE(10),
      crc: h.readUInt32LE(16),
      compressedSize,
      size,
      // Only an archive made on Unix (3) or macOS (19) carries a Unix mode in the high bits.
      mode: [3, 19].includes(h.readUInt8(5)) ? (h.readUInt32LE(38) >>> 16) & 0o170000 : 0,
    });
  }
  const directoryEnd = src.offset;
  let end: { count: number; size: number; offset: number } | undefined;
  let sig = await src.signature();
  if (sig === SIG_END64) {
    const h = await src.read(56);
    // Its size counts the record after its first 12 bytes: 44 at least, and never the whole archive.
    const extensible = Number(h.readBigUInt64LE(4)) - 44;
    if (extensible < 0 || extensible > 64 * 1024) throw refuse('its ZIP64 end record is damaged');
    await src.read(extensible);
    end = {
      count: Number(h.readBigUInt64LE(32)),
      size: Number(h.readBigUInt64LE(40)),
      offset: Number(h.readBigUInt64LE(48)),
    };
    sig = await src.signature();
    if (sig === SIG_LOCATOR64) {
      await src.read(20);
      sig = await src.signature();
    }
  }
  if (sig !== SIG_END) throw refuse('its list of files does not end where it should');
  const h = await src.read(22);
  await src.read(h.readUInt16LE(20));
  end ??= { count: h.readUInt16LE(10), size: h.readUInt32LE(12), offset: h.readUInt32LE(16) };
  if (!(await src.atEnd())) throw refuse('there are bytes after its list of files');
  if (end.count !== entries.length || end.offset !== start || end.size !== directoryEnd - start)
    throw refuse('its list of files disagrees with its end record');
  return { entries, start, end };
}

/**
 * Every entry the stream had, against the central directory: the same entries at the same
 * offsets, with the same names, method, CRC and sizes. An entry one side lacks is refused.
 */
export function crossCheck(
  streamed: (LocalEntry & { crc: number; compressedSize: number; size: number })[],
  central: CentralEntry[],
): void {
  const byOffset = new Map(streamed.map((e) => [e.offset, e]));
  for (const c of central) {
    const s = byOffset.get(c.offset);
    if (!s) throw refuse(`its list of files names ${c.fileName}, which the archive never had`);
    byOffset.delete(c.offset);
    if (s.fileName !== c.fileName) throw refuse(`${c.fileName} is named ${s.fileName} in its own header`);
    if (
      s.method !== c.method ||
      s.crc >>> 0 !== c.crc >>> 0 ||
      s.size !== c.size ||
      s.compressedSize !== c.compressedSize
    )
      throw refuse(`${c.fileName} in its own header disagrees with the list of files`);
    if (c.mode === 0o120000) throw refuse(`entry "${c.fileName}" is a symbolic link`);
  }
  const extra = [...byOffset.values()][0];
  if (extra) throw refuse(`${extra.fileName} is in the archive but not in its list of files`);
}
