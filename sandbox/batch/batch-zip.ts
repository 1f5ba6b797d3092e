import { zipSync, type Zippable } from 'fflate';

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
  const zipped = zipSync(files, { level: 6, mtime: new Date() });
  return Buffer.from(zipped.buffer, zipped.byteOffset, zipped.byteLength);
}
