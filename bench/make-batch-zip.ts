import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { deflateRawSync, crc32 } from 'node:zlib';
import type { WriteStream } from 'node:fs';
import { Zip, ZipPassThrough } from 'fflate';
import sharp from 'sharp';

/** Bytes per image: 1024 × 1024 RGB noise, which PNG cannot shrink, as a photographic 1K image. */
const SIDE = 1024;

/**
 * A batch ZIP the size users download: `count` 1K PNGs of about 3 MB each (random pixels, stored
 * with low compression, so about 600 MB for 200), laid out as the sandbox and deployed gateways do:
 * images/, manifest.json, errors.json, images stored (or deflated: `form`). Stored, written as a stream with fflate (local headers
 * with data descriptors, as streaming zip writers such as Go's archive/zip emit), so making it
 * never holds the archive in memory. Cached in bench/.cache.
 */
export async function largeBatchZip(
  count = 200,
  form: 'stored' | 'deflated' | 'deflated-descriptors' = 'stored',
): Promise<{ file: string; successCount: number }> {
  const dir = join(import.meta.dirname, '.cache');
  const file = join(dir, `batch-${count}-1k-noise${form === 'stored' ? '' : `-${form}`}.zip`);
  if (existsSync(file)) return { file, successCount: count };
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  const zip = new Zip();
  let failure: Error | null = null;
  zip.ondata = (err, chunk) => {
    if (err) failure = err;
    else out.write(chunk);
  };
  const known = form === 'stored' ? undefined : new DeflatedZip(out, form === 'deflated-descriptors');
  const add = async (name: string, data: Uint8Array) => {
    if (known) {
      known.add(name, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      if (out.writableNeedDrain) await once(out, 'drain');
      return;
    }
    const entry = new ZipPassThrough(name);
    entry.mtime = new Date();
    zip.add(entry);
    entry.push(data, true);
    if (out.writableNeedDrain) await once(out, 'drain');
    if (failure) throw failure;
  };
  const files = [];
  for (let i = 0; i < count; i++) {
    const filename = `images/shot-${i + 1}.png`;
    const png = await sharp(randomBytes(SIDE * SIDE * 3), { raw: { width: SIDE, height: SIDE, channels: 3 } })
      .png({ compressionLevel: 1, adaptiveFiltering: false })
      .toBuffer();
    await add(filename, png);
    files.push({ custom_id: `shot-${i + 1}`, filename, mime_type: 'image/png', image_index: 0 });
  }
  const manifest = {
    batch_id: 'imgbatch_bench',
    model: 'imgvendor-3.1-flash-image',
    item_count: count,
    success_count: count,
    fail_count: 0,
    files,
  };
  await add('manifest.json', new TextEncoder().encode(JSON.stringify(manifest, null, 2)));
  await add('errors.json', new TextEncoder().encode('[]'));
  if (known) known.end();
  else zip.end();
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  if (failure) throw failure;
  renameSync(partial, file);
  return { file, successCount: count };
}

/**
 * The deflated archive, images deflated at level 1 (they gain nothing; the reader must inflate
 * every byte all the same). As general zip tools write it to a file they can seek in: each entry's
 * CRC and sizes in its local header. Or, with `descriptors`, as Go's archive/zip writes one to a
 * stream: the local header without them (bit 3), and a signed data descriptor after the data.
 */
class DeflatedZip {
  private offset = 0;
  private central: Buffer[] = [];

  constructor(
    private out: WriteStream,
    private descriptors: boolean,
  ) {}

  add(name: string, data: Buffer): void {
    const deflate = name.startsWith('images/');
    const body = deflate ? deflateRawSync(data, { level: 1 }) : data;
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(this.descriptors ? 0x8 : 0, 6);
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    // CRC and sizes: in the local header, or (with descriptors) only after the data.
    const sizes = Buffer.alloc(12);
    sizes.writeUInt32LE(crc32(data), 0);
    sizes.writeUInt32LE(body.length, 4);
    sizes.writeUInt32LE(data.length, 8);
    if (!this.descriptors) sizes.copy(local, 14);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    local.copy(central, 8, 6, 26);
    sizes.copy(central, 16);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(this.offset, 42);
    this.central.push(central, nameBytes);
    this.out.write(Buffer.concat([local, nameBytes]));
    this.out.write(body);
    const descriptor = this.descriptors
      ? Buffer.concat([Buffer.from('PK\x07\x08', 'latin1'), sizes])
      : undefined;
    if (descriptor) this.out.write(descriptor);
    this.offset += 30 + nameBytes.length + body.length + (descriptor?.length ?? 0);
  }

  end(): void {
    const directory = Buffer.concat(this.central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.central.length / 2, 8);
    end.writeUInt16LE(this.central.length / 2, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(this.offset, 16);
    this.out.write(directory);
    this.out.write(end);
  }
}
