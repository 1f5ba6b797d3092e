import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { onTestFinished } from 'vitest';
import { imageStem, safeName, UniqueNames } from '../../services/storage/file-names';
import { ingestBatchZip, type VerifiedImage } from '../../services/zip/zip-stream-ingest';

// A batch ZIP written by hand, so every form a streaming reader meets can be made: data descriptors with
// and without their signature, 32 and 64 bits wide, stored and deflated, and archives that lie.

export const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a8' } })
  .png()
  .toBuffer();

/**
 * An image whose bytes hold things that look like ZIP records: a stored scan must not stop at them.
 * Its noise comes from `random` where a test must be repeatable.
 */
export function trickyImage(size: number, random?: () => number): Buffer {
  const data = random
    ? Buffer.from(Array.from({ length: size }, () => Math.floor(random() * 256)))
    : randomBytes(size);
  png.copy(data, 0, 0, 16);
  for (const at of [size >> 2, size >> 1, (size * 3) >> 2]) {
    Buffer.from('PK\x07\x08').copy(data, at);
    Buffer.from('PK\x03\x04').copy(data, at + 40);
    Buffer.from('PK\x01\x02').copy(data, at + 80);
  }
  return data;
}

export interface Entry {
  name: string;
  data: Buffer;
  deflate?: boolean;
  /** Bit 3: the CRC and sizes come after the data. */
  descriptor?: 'signed32' | 'unsigned32' | 'signed64' | 'unsigned64';
  /** Lies, each on one side only. */
  localName?: string;
  descriptorCrc?: number;
  descriptorCompressed?: number;
  descriptorSize?: number;
  centralCrc?: number;
  unlisted?: boolean;
}

export function zipOf(entries: Entry[], options: { phantom?: boolean; trailing?: Buffer } = {}): Buffer {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const push = (b: Buffer) => {
    out.push(b);
    offset += b.length;
  };
  for (const e of entries) {
    const body = e.deflate ? deflateRawSync(e.data) : e.data;
    const crc = crc32(e.data) >>> 0;
    const name = Buffer.from(e.localName ?? e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.descriptor ? 0x8 : 0, 6);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    if (!e.descriptor) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(e.data.length, 22);
    }
    local.writeUInt16LE(name.length, 26);
    const at = offset;
    push(Buffer.concat([local, name, body]));
    if (e.descriptor) {
      const wide = e.descriptor.endsWith('64');
      const d = Buffer.alloc(wide ? 20 : 12);
      d.writeUInt32LE((e.descriptorCrc ?? crc) >>> 0, 0);
      const compressed = e.descriptorCompressed ?? body.length;
      const size = e.descriptorSize ?? e.data.length;
      if (wide) {
        d.writeBigUInt64LE(BigInt(compressed), 4);
        d.writeBigUInt64LE(BigInt(size), 12);
      } else {
        d.writeUInt32LE(compressed, 4);
        d.writeUInt32LE(size, 8);
      }
      push(e.descriptor.startsWith('signed') ? Buffer.concat([Buffer.from('PK\x07\x08'), d]) : d);
    }
    if (e.unlisted) continue;
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(e.descriptor ? 0x8 : 0, 8);
    c.writeUInt16LE(e.deflate ? 8 : 0, 10);
    c.writeUInt32LE((e.centralCrc ?? crc) >>> 0, 16);
    c.writeUInt32LE(body.length, 20);
    c.writeUInt32LE(e.data.length, 24);
    c.writeUInt16LE(Buffer.byteLength(e.name), 28);
    c.writeUInt32LE(at, 42);
    central.push(Buffer.concat([c, Buffer.from(e.name)]));
  }
  if (options.phantom) {
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE('images/ghost.png'.length, 28);
    c.writeUInt32LE(offset + 12345, 42);
    central.push(Buffer.concat([c, Buffer.from('images/ghost.png')]));
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length, 8);
  end.writeUInt16LE(central.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, directory, end, options.trailing ?? Buffer.alloc(0)]);
}

export function manifestOf(names: string[]): Entry {
  const files = names.map((n) => ({
    custom_id: n,
    filename: `images/${n}.png`,
    mime_type: 'image/png',
    image_index: 0,
  }));
  return {
    name: 'manifest.json',
    data: Buffer.from(JSON.stringify({ batch_id: 'b', success_count: names.length, files })),
  };
}

/** The archive in pieces of random sizes (a network's), some of one byte. */
export async function* pieces(
  data: Buffer,
  from = 0,
  stopAt = data.length,
  random: () => number = Math.random,
): AsyncGenerator<Buffer> {
  for (let at = from; at < stopAt;) {
    const n = random() < 0.2 ? 1 : 1 + Math.floor(random() * 70_000);
    yield data.subarray(at, Math.min(stopAt, at + n));
    at += n;
  }
}

export async function ingest(
  zip: Buffer,
  open?: (from: number) => AsyncIterable<Buffer> | undefined,
  verified?: VerifiedImage[],
  base = tmpdir(),
) {
  const dir = mkdtempSync(join(base, 'zip-stream-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const names = new UniqueNames();
  mkdirSync(join(dir, 'images'));
  const result = ingestBatchZip({
    open: async (from) => (open ? open(from) : pieces(zip, from)),
    targetDir: join(dir, 'images'),
    // Named as a download names them: a custom_id is the gateway's text, never a path.
    nameFor: (id, index, ext) => names.take(safeName(imageStem(id, index)), ext),
    verified,
  });
  return { result, dir: join(dir, 'images') };
}
