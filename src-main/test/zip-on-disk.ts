import { createReadStream } from 'node:fs';
import type { ZipLimits } from '../services/library/zip-entries';
import type { IngestedZip } from '../services/library/zip-ingest';
import { ingestBatchZip } from '../services/library/zip-stream-ingest';

/**
 * A batch ZIP already on disk (a test's archive), verified and extracted by the same
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
