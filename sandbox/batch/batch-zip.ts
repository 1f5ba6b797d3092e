import { Zip, ZipDeflate, ZipPassThrough, zipSync, type Zippable } from 'fflate';

export interface ZipImage {
  customId: string;
  mime: string;
  extension: string;
  imageIndex: number;
  data: Buffer;
}

export interface ZipContents {
  batchId: string;
  model: string;
  itemCount: number;
  successCount: number;
  failCount: number;
  images: ZipImage[];
  errors: { custom_id: string; code: string; message: string }[];
  /** Deflate the images too, as general zip tools do; clients must then inflate what they read. */
  deflate?: boolean;
  /** Sizes and CRCs in data descriptors after each entry (bit 3), as streaming zip writers emit. */
  descriptors?: boolean;
  /** The entries' time: fixed, so the same batch gives the same bytes on every request. */
  mtime?: Date;
}

/** The results archive as deployed gateways lay it out: images/, manifest.json, errors.json. */
export function buildBatchZip(contents: ZipContents): Buffer {
  const files: Zippable = {};
  const manifestFiles = contents.images.map((image) => {
    const suffix = image.imageIndex > 0 ? `_${image.imageIndex + 1}` : '';
    const filename = `images/${image.customId}${suffix}.${image.extension}`;
    // Images are already compressed; storing them keeps the archive fast to build and to read.
    files[filename] = [
      new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength),
      { level: contents.deflate ? 6 : 0 },
    ];
    return { custom_id: image.customId, filename, mime_type: image.mime, image_index: image.imageIndex };
  });
  const manifest = {
    batch_id: contents.batchId,
    model: contents.model,
    item_count: contents.itemCount,
    success_count: contents.successCount,
    fail_count: contents.failCount,
    files: manifestFiles,
  };
  files['manifest.json'] = new TextEncoder().encode(JSON.stringify(manifest, null, 2));
  files['errors.json'] = new TextEncoder().encode(JSON.stringify(contents.errors, null, 2));
  const mtime = contents.mtime ?? new Date();
  if (contents.descriptors) return streamedZip(files, mtime);
  const zipped = zipSync(files, { level: 6, mtime });
  return Buffer.from(zipped.buffer, zipped.byteOffset, zipped.byteLength);
}

/** The same entries written as a streaming writer does: local headers without sizes, then descriptors. */
function streamedZip(files: Zippable, mtime: Date): Buffer {
  const parts: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else parts.push(chunk);
  });
  for (const [name, value] of Object.entries(files)) {
    const [data, options] = Array.isArray(value) ? value : [value as Uint8Array, {}];
    const level = (options as { level?: number }).level ?? 6;
    const entry = level === 0 ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    entry.mtime = mtime;
    zip.add(entry);
    entry.push(data as Uint8Array, true);
  }
  zip.end();
  if (failure) throw failure;
  return Buffer.concat(parts);
}
