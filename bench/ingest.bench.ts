// Ingest: a batch ZIP the size users download (200 1K PNGs of about 3 MB each, about 650 MB,
// stored, laid out as the gateway does) from ZIP to verified, fsynced library folder by the studio's
// real ingest, beside libarchive's `bsdtar -xf` on the same file followed by GNU `sync FILE...`
// over every extracted file and folder, in the same run, alternating which goes first. Median of
// several runs each.
// The same durable work on both sides: bsdtar checks each entry's CRC-32 as the studio does, and
// sync(1) given files fsyncs each of them and the folder, as the studio fsyncs every image (while
// it extracts) and every folder (as it publishes). The studio does more besides: the manifest,
// names, types and sizes checked, batch.json written atomically, the folder moved in by rename.
// Judged: ratio <= 1.5, the ingest process's peak RSS < 200 MB. The load average is printed: on a
// machine shared with other work, both sides slow down, but not alike.
import { loadavg } from 'node:os';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { largeBatchZip } from './make-batch-zip';

const RUNS = 5;
const TARGET = 'ratio <= 1.5 and peak_rss_mb < 200';

if (spawnSync('bsdtar', ['--version']).error) {
  console.log('bsdtar is not installed: the reference cannot run (apt-get install libarchive-tools)');
  console.log(JSON.stringify({ bench: 'ingest', error: 'bsdtar missing', target: TARGET, pass: false }));
  process.exit(1);
}

const { file, successCount } = await largeBatchZip(200);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The reference: extract everything with bsdtar, then fsync every file and folder with sync(1). */
function bsdtarWithSync(): number {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bsdtar-'));
  try {
    const started = performance.now();
    execFileSync('bsdtar', ['-xf', file, '-C', dir]);
    const paths = readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => join(dir, p));
    execFileSync('sync', ['--', dir, ...paths]);
    const seconds = (performance.now() - started) / 1000;
    if (paths.filter((p) => p.endsWith('.png')).length !== successCount)
      throw new Error('bsdtar extracted too few images');
    return seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The studio's ingest, alone in a child process so that its peak memory is its own. */
function studioIngest(): { wall_s: number; extract_s: number; peak_rss_mb: number; start_rss_mb: number } {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'ingest-child.ts'), file, String(successCount)],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(child.stderr);
  const result = JSON.parse(child.stdout.trim().split('\n').pop()!) as {
    wall_s: number;
    extract_s: number;
    peak_rss_mb: number;
    start_rss_mb: number;
    images: number;
  };
  if (result.images !== successCount) throw new Error(`ingested ${result.images} of ${successCount}`);
  return result;
}

const loadBefore = loadavg()[0]!;
const bsdtarTimes: number[] = [];
const ingestTimes: number[] = [];
const rss: number[] = [];
const startRss: number[] = [];
const extractTimes: number[] = [];
for (let run = 0; run < RUNS; run++) {
  // Alternating the order, so that neither always finds the page cache warmed by the other.
  const ingestFirst = run % 2 === 0;
  if (!ingestFirst) bsdtarTimes.push(bsdtarWithSync());
  const result = studioIngest();
  ingestTimes.push(result.wall_s);
  rss.push(result.peak_rss_mb);
  startRss.push(result.start_rss_mb);
  extractTimes.push(result.extract_s);
  if (ingestFirst) bsdtarTimes.push(bsdtarWithSync());
}

const wall = median(ingestTimes);
const reference = median(bsdtarTimes);
const ratio = wall / reference;
const peak = Math.max(...rss);
console.log(
  `zip: ${(statSync(file).size / 1e6).toFixed(1)} MB, ${successCount} images; runs: ${RUNS}; load average (1 min) ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after`,
);
console.log(`studio ingest wall (s): ${ingestTimes.map((t) => t.toFixed(3)).join(' ')}`);
console.log(
  `  of which verified, fsynced extraction (s): ${extractTimes.map((t) => t.toFixed(3)).join(' ')}; the rest is the record and the publish`,
);
console.log(`bsdtar -xf + sync wall (s): ${bsdtarTimes.map((t) => t.toFixed(3)).join(' ')}`);
console.log(
  `ingest peak RSS (MB): ${rss.map((r) => r.toFixed(0)).join(' ')} (node and tsx alone before it: ${median(startRss).toFixed(0)})`,
);
console.log(
  JSON.stringify({
    bench: 'ingest',
    zip_mb: Number((statSync(file).size / 1e6).toFixed(1)),
    wall_s: Number(wall.toFixed(3)),
    bsdtar_sync_wall_s: Number(reference.toFixed(3)),
    ratio: Number(ratio.toFixed(3)),
    peak_rss_mb: Number(peak.toFixed(1)),
    load_1min: Number(loadBefore.toFixed(2)),
    target: TARGET,
    pass: ratio <= 1.5 && peak < 200,
  }),
);
