import { createReadStream } from 'node:fs';
import type { ZipManifest } from '../gateway/batch-wire';
import type { ZipLimits } from './zip-entries';
import { ingestBatchZip } from './zip-stream-ingest';

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

/**
 * A batch ZIP already on disk (an export, a test's archive), verified and extracted by the same
 * streaming reader that takes a download as it arrives (zip-stream-ingest.ts).
 */
export function extractBatchZip(options: {
  zipFile: string;
  targetDir: string;
  expectedSuccessCount?: number;
  nameFor: (customId: string, imageIndex: number, extension: string) => string;
  limits?: ZipLimits;
  onImage?: (done: number, total: number) => void;
  scrub?: (text: string) => string;
}): Promise<IngestedZip> {
  const { zipFile, onImage, ...rest } = options;
  return ingestBatchZip({
    ...rest,
    open: async (from) => createReadStream(zipFile, { start: from, highWaterMark: 256 * 1024 }),
    onProgress: (_bytes, images) => onImage?.(images, options.expectedSuccessCount ?? images),
  });
}
