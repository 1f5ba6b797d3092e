import { createReadStream, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ZipLimits } from '../../services/zip/zip-entries';
import type { IngestedZip } from '../../services/zip/zip-ingest';
import { ingestBatchZip } from '../../services/zip/zip-stream-ingest';

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

/** A test's archive, written to a folder of its own and extracted into `out` beside it, each image named by its custom id. */
export async function extractZip(
  zip: Uint8Array,
  options: Partial<Parameters<typeof extractBatchZip>[0]> = {},
): Promise<{ result: IngestedZip; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'zip-test-'));
  writeFileSync(join(dir, 'in.zip'), zip);
  mkdirSync(join(dir, 'out'));
  const result = await extractBatchZip({
    zipFile: join(dir, 'in.zip'),
    targetDir: join(dir, 'out'),
    nameFor: (id, _i, ext) => `${id}.${ext}`,
    ...options,
  });
  return { result, out: join(dir, 'out') };
}
