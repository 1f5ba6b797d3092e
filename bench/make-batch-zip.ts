import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import sharp from 'sharp';

/** Bytes per image: 1024 × 1024 RGB noise, which PNG cannot shrink, as a photographic 1K image. */
const SIDE = 1024;

/**
 * A batch ZIP the size users download: `count` 1K PNGs of about 3 MB each (random pixels, stored
 * with low compression, so about 600 MB for 200), laid out as the sandbox and deployed gateways do:
 * images/, manifest.json, errors.json, images stored (or deflated, with `deflate`). Written as a stream with fflate (local headers
 * with data descriptors, as streaming zip writers such as Go's archive/zip emit), so making it
 * never holds the archive in memory. Cached in bench/.cache.
 */
export async function largeBatchZip(
  count = 200,
  deflate = false,
): Promise<{ file: string; successCount: number }> {
  const dir = join(import.meta.dirname, '.cache');
  const file = join(dir, `batch-${count}-1k-noise${deflate ? '-deflated' : ''}.zip`);
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
  const add = async (name: string, data: Uint8Array) => {
    // Deflated as general zip tools do to PNGs (level 1: they gain nothing, the reader must inflate).
    const entry =
      deflate && name.startsWith('images/') ? new ZipDeflate(name, { level: 1 }) : new ZipPassThrough(name);
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
  zip.end();
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  if (failure) throw failure;
  renameSync(partial, file);
  return { file, successCount: count };
}
