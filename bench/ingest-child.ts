// One ingest, alone in its process, so its peak memory is its own: ZIP file to verified library
// folder, every image fsynced as it is extracted, then every file and folder before it is published
// (publishBatchFolder).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  batchFolderName,
  newStagingDir,
  publishBatchFolder,
  type BatchFile,
} from '../src-main/services/library/batch-folder';
import { UniqueNames, safeName } from '../src-main/services/library/file-names';
import { extractBatchZip } from '../src-main/services/library/zip-ingest';

const [zipFile, successCount] = [process.argv[2]!, Number(process.argv[3])];
// What node and tsx take before the ingest starts, to tell the ingest's own share of the peak.
const startRssMb = process.memoryUsage().rss / 1024 / 1024;
const library = mkdtempSync(join(tmpdir(), 'bench-library-'));
const started = performance.now();
const staging = await newStagingDir(library, 'imgbatch_bench');
const names = new UniqueNames();
const result = await extractBatchZip({
  zipFile,
  targetDir: join(staging, 'images'),
  expectedSuccessCount: successCount,
  nameFor: (id, index, ext) => names.take(safeName(index ? `${id}_${index + 1}` : id), ext),
});
// Verified, fsynced extraction, then the publish (batch.json, fsync of the tree, rename), timed apart.
const extracted = (performance.now() - started) / 1000;
const batch = {
  id: 'imgbatch_bench',
  task_name: 'bench',
  created_at: Math.floor(Date.now() / 1000),
} as BatchFile['batch'];
await publishBatchFolder(library, staging, batchFolderName(batch), {
  format: 'batch-image-studio.batch/1',
  batch,
  profile: { id: 'bench', name: 'bench' },
  lineage: { rootBatchId: batch.id, parentBatchId: null },
  draft: null,
  references: [],
  images: result.images.map((i) => ({ ...i, file: `images/${i.file}`, rowIndex: null, prompt: '' })),
  failures: [],
  download: { source: 'zip', downloadedAt: new Date().toISOString() },
});
const wall = (performance.now() - started) / 1000;
rmSync(library, { recursive: true, force: true });
process.stdout.write(
  JSON.stringify({
    wall_s: wall,
    extract_s: extracted,
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    start_rss_mb: startRssMb,
    images: result.images.length,
  }) + '\n',
);
