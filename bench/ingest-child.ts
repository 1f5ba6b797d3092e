// One ingest, alone in its process, so its peak memory and disk are its own: the batch ZIP from a
// local HTTP server, through the studio's batch client (its request set-up and stall watch), to a
// verified library folder by the studio's real streaming ingest (each image fsynced as it is
// extracted, resumed by Range where the stream is cut), then the publish (publishBatchFolder:
// batch.json, every file and folder fsynced, the rename).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  batchFolderName,
  newStagingDir,
  publishBatchFolder,
} from '../src-main/services/library/folders/batch-folder';
import type { BatchJson } from '../src-main/services/library/folders/batch-json';
import { stagingAreaOf } from '../src-main/services/library/sharing/studio-staging';
import { BatchClient } from '../src-main/services/gateway/batch-client';
import { UniqueNames, imageStem, safeName } from '../src-main/services/storage/file-names';
import { ingestBatchZip } from '../src-main/services/zip/zip-stream-ingest';

const [baseUrl, batchId, successCount, keep] = [
  process.argv[2]!,
  process.argv[3]!,
  Number(process.argv[4]),
  process.argv[5],
];
// The studio's own client, as a download uses it: its request set-up and its stall watch.
const client = new BatchClient({ baseUrl, key: 'bench' });
// What node and tsx take before the ingest starts, to tell the ingest's own share of the peak.
const startRssMb = process.memoryUsage().rss / 1024 / 1024;
const startCpu = process.cpuUsage();
const library = keep ?? mkdtempSync(join(tmpdir(), 'bench-library-'));
// Disk the ingest holds, sampled (the bytes of every file under its library; the disk's free space
// would count other programs too): with no copy of the archive, it should peak at the images.
const heldBytes = (): number =>
  readdirSync(library, { recursive: true, encoding: 'utf8' }).reduce((sum, p) => {
    try {
      const s = statSync(join(library, p));
      return s.isFile() ? sum + s.size : sum;
    } catch {
      return sum; // renamed or removed between the listing and the stat
    }
  }, 0);
let peakHeld = 0;
// Every 250 ms: a stat of every file at 50 ms was a fifth of the CPU this process was charged for
// a stored archive, the bench's and not the ingest's. The peak is at the end, measured there too.
const sampler = setInterval(() => (peakHeld = Math.max(peakHeld, heldBytes())), 250);
let resumes = 0;
const started = performance.now();
const staging = await newStagingDir(stagingAreaOf(library, 'bench'), 'imgbatch_bench');
const names = new UniqueNames();
const result = await ingestBatchZip({
  open: async (from) => {
    if (from > 0) resumes++;
    return (await client.zipStream(batchId, from))?.body;
  },
  targetDir: join(staging, 'images'),
  expectedSuccessCount: successCount,
  nameFor: (id, index, ext) => names.take(safeName(imageStem(id, index)), ext),
});
const extracted = (performance.now() - started) / 1000;
const batch = {
  id: 'imgbatch_bench',
  task_name: 'bench',
  created_at: Math.floor(Date.now() / 1000),
} as BatchJson['batch'];
const folder = batchFolderName(batch);
await publishBatchFolder(
  library,
  staging,
  folder,
  {
    batch,
    profile: { id: 'bench', name: 'bench' },
    lineage: { rootBatchId: batch.id, parentBatchId: null },
    draft: null,
    references: [],
    images: result.images.map((i) => ({ ...i, file: `images/${i.file}`, rowIndex: null, prompt: '' })),
    failures: [],
    download: { source: 'zip', downloadedAt: new Date().toISOString() },
  },
  { flushed: result.images.map((i) => `images/${i.file}`) },
);
const wall = (performance.now() - started) / 1000;
// CPU the ingest used (user and system, all threads): on a busy machine, what wall time hides.
// Taken before the bench deletes the library, which costs the kernel a second of its own.
const used = process.cpuUsage(startCpu);
const cpu = (used.user + used.system) / 1e6;
clearInterval(sampler);
peakHeld = Math.max(peakHeld, heldBytes());
if (!keep) rmSync(library, { recursive: true, force: true });
process.stdout.write(
  JSON.stringify({
    wall_s: wall,
    extract_s: extracted,
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    cpu_s: cpu,
    // User time is JavaScript, zlib and the HTTP parser; system time the socket reads, the
    // writes and the fsyncs, in the kernel.
    user_s: used.user / 1e6,
    sys_s: used.system / 1e6,
    start_rss_mb: startRssMb,
    peak_disk_bytes: peakHeld,
    images: result.images.length,
    resumes,
    folder: join(library, folder),
  }) + '\n',
);
