// Ingest: a 200-image batch ZIP (1K PNGs as the sandbox makes them) from ZIP to verified library
// folder, against `unzip -q` on the same file in the same run. Judged: ratio <= 1.5, peak RSS < 200 MB.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchZip } from './make-batch-zip';

const RUNS = 5;
const { file, successCount } = await batchZip(200);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const unzipTimes: number[] = [];
const ingestTimes: number[] = [];
const rss: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-unzip-'));
  const t = performance.now();
  execFileSync('unzip', ['-q', file, '-d', dir]);
  unzipTimes.push((performance.now() - t) / 1000);
  rmSync(dir, { recursive: true, force: true });

  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'ingest-child.ts'), file, String(successCount)],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(child.stderr);
  const result = JSON.parse(child.stdout.trim().split('\n').pop()!) as {
    wall_s: number;
    peak_rss_mb: number;
    images: number;
  };
  if (result.images !== successCount) throw new Error(`ingested ${result.images} of ${successCount}`);
  ingestTimes.push(result.wall_s);
  rss.push(result.peak_rss_mb);
}

const wall = median(ingestTimes);
const unzip = median(unzipTimes);
const ratio = wall / unzip;
const peak = Math.max(...rss);
console.log(`zip: ${(statSync(file).size / 1e6).toFixed(1)} MB, ${successCount} images; runs: ${RUNS}`);
console.log(`ingest wall (s): ${ingestTimes.map((t) => t.toFixed(3)).join(' ')}`);
console.log(`unzip -q wall (s): ${unzipTimes.map((t) => t.toFixed(3)).join(' ')}`);
console.log(
  JSON.stringify({
    bench: 'ingest',
    wall_s: Number(wall.toFixed(4)),
    unzip_wall_s: Number(unzip.toFixed(4)),
    ratio: Number(ratio.toFixed(3)),
    peak_rss_mb: Number(peak.toFixed(1)),
    target: 'ratio <= 1.5 and peak_rss_mb < 200',
    pass: ratio <= 1.5 && peak < 200,
  }),
);
