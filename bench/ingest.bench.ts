// Ingest: a batch ZIP the size users download (200 1K PNGs of about 3 MB each, about 575 MB, written
// by a streaming writer with data descriptors), from a local HTTP server to a verified, durable
// library folder, by the studio's real streaming ingest in its own process (bench/ingest-child.ts):
// stored; deflated with sizes in the local headers, as general zip tools write to a file; and
// deflated with data descriptors, as Go's archive/zip writes to a stream. In the same run, alternating
// the order, median of several runs, beside two references on the same bytes from the same server:
//  - the disk's durable floor: `dd conv=fsync` writing the archive's bytes once;
//  - by hand: `curl -o` the archive, `bsdtar -xf` it (which checks each CRC-32), GNU `sync FILE...`
//    over every file and folder extracted.
// And, for each deflated archive, zlib alone inflating its entries in memory on every core: the CPU
// floor of any extraction here (bench/inflate-floor.ts). With the two floors the last line says
// whether each ratio target can be met on this machine at all.
// Then the same stored archive cut by the server at 30, 60 and 99 % of its bytes, resumed by Range:
// every image must come out byte-identical to bsdtar's extraction of the whole archive.
// Judged: ≤ 1.5× dd, ≤ 0.7× curl + bsdtar + sync, peak disk held ≤ 1.05× the archive, peak RSS < 200 MB.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { largeBatchZip } from './make-batch-zip';

const RUNS = 3;
const TARGET =
  'dd_ratio <= 1.5, by_hand_ratio <= 0.7, disk_ratio <= 1.05, peak_rss_mb < 200, cuts byte-identical';

for (const tool of ['bsdtar', 'curl', 'dd']) {
  if (spawnSync(tool, ['--version']).error) {
    console.log(`${tool} is not installed: the reference cannot run (apt-get install libarchive-tools curl)`);
    console.log(JSON.stringify({ bench: 'ingest', error: `${tool} missing`, target: TARGET, pass: false }));
    process.exit(1);
  }
}

const zips = {
  stored: await largeBatchZip(200),
  deflated: await largeBatchZip(200, 'deflated'),
  deflated_descriptors: await largeBatchZip(200, 'deflated-descriptors'),
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// The gateway stand-in: the archive's bytes, Range honoured, at `/<kind>` for curl and at the batch
// API's download path for the studio's own client; a batch id `stored~cut0.3` ends the first
// answer at 30 % of its bytes.
const cutOnce = new Set<string>();
const server = createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  const [, id = '', share] =
    /^\/(?:v1\/images\/batches\/)?([^/~]+(?:~cut([\d.]+))?)(?:\/download)?$/.exec(url.pathname) ?? [];
  const kind = id.replace(/~.*/, '') as keyof typeof zips;
  const file = zips[kind]?.file;
  if (!file) return void res.writeHead(404).end();
  const size = statSync(file).size;
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const from = range ? Number(range[1]) : 0;
  const cut = Number(share);
  const key = id;
  let end = size;
  if (cut && !range && !cutOnce.has(key)) {
    cutOnce.add(key);
    end = Math.floor(size * cut);
  }
  res.writeHead(range ? 206 : 200, {
    'content-type': 'application/zip',
    ...(range ? { 'content-range': `bytes ${from}-${size - 1}/${size}` } : {}),
  });
  const stream = createReadStream(file, { start: from, end: end - 1, highWaterMark: 256 * 1024 });
  // A cut is a connection that breaks, as a gateway's does: no clean end.
  stream.pipe(res, { end: end === size });
  if (end < size) stream.on('end', () => res.destroy());
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

type ChildResult = {
  wall_s: number;
  peak_rss_mb: number;
  start_rss_mb: number;
  peak_disk_bytes: number;
  images: number;
  resumes: number;
  folder: string;
};

/** A bench script in its own process (spawned, so this process keeps serving meanwhile): its last JSON line. */
function runScript<T>(script: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, script), ...args]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!) as T)
        : reject(new Error(`${script}: ${err}`)),
    );
  });
}

/** The studio's ingest in its own process. */
async function studioIngest(batchId: string, keep?: string): Promise<ChildResult> {
  const result = await runScript<ChildResult>('ingest-child.ts', [
    base,
    batchId,
    '200',
    ...(keep ? [keep] : []),
  ]);
  if (result.images !== 200) throw new Error(`ingested ${result.images} of 200`);
  return result;
}

/** Runs a shell line, timed, without blocking this process's server. */
function timed(line: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('bash', ['-c', line], { stdio: 'ignore' });
    child.on('close', (code) =>
      code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`${line}: ${code}`)),
    );
  });
}

/** The disk's floor: the archive's bytes written once, durably, by dd from the server. */
async function ddFloor(kind: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dd-'));
  try {
    return await timed(`curl -s ${base}/${kind} | dd of=${dir}/zip bs=1M conv=fsync status=none`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** zlib alone inflating the deflated archive's entries in memory on every core (bench/inflate-floor.ts). */
async function inflateFloor(file: string): Promise<number> {
  return (await runScript<{ seconds: number }>('inflate-floor.ts', [file])).seconds;
}

/** By hand: curl, bsdtar, sync every file and folder. */
async function byHand(kind: string, keep?: string): Promise<number> {
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'bench-hand-'));
  try {
    return await timed(
      `set -e; curl -s -o ${dir}/batch.zip ${base}/${kind}; mkdir -p ${dir}/x; bsdtar -xf ${dir}/batch.zip -C ${dir}/x; find ${dir}/x -print0 | xargs -0 sync --`,
    );
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

const loadBefore = loadavg()[0]!;
const figures: Record<string, unknown> = {};
let pass = true;
for (const kind of ['stored', 'deflated', 'deflated_descriptors'] as const) {
  const studio: ChildResult[] = [];
  const dd: number[] = [];
  const hand: number[] = [];
  const inflate: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Alternating the order, so that none always finds the page cache warmed by another.
    const order = run % 2 === 0 ? ['studio', 'dd', 'hand'] : ['hand', 'dd', 'studio'];
    for (const what of order) {
      if (what === 'studio') studio.push(await studioIngest(kind));
      else if (what === 'dd') dd.push(await ddFloor(kind));
      else hand.push(await byHand(kind));
    }
    if (kind !== 'stored') inflate.push(await inflateFloor(zips[kind].file));
  }
  const zipBytes = statSync(zips[kind].file).size;
  const wall = median(studio.map((s) => s.wall_s));
  const result = {
    zip_mb: Number((zipBytes / 1e6).toFixed(1)),
    studio_s: Number(wall.toFixed(3)),
    dd_fsync_s: Number(median(dd).toFixed(3)),
    curl_bsdtar_sync_s: Number(median(hand).toFixed(3)),
    dd_ratio: Number((wall / median(dd)).toFixed(2)),
    by_hand_ratio: Number((wall / median(hand)).toFixed(2)),
    disk_ratio: Number((Math.max(...studio.map((s) => s.peak_disk_bytes)) / zipBytes).toFixed(3)),
    peak_rss_mb: Number(Math.max(...studio.map((s) => s.peak_rss_mb)).toFixed(0)),
    start_rss_mb: Number(median(studio.map((s) => s.start_rss_mb)).toFixed(0)),
    // Targets no code could meet on this machine: no durable writer beats dd of the same bytes, and
    // no extraction of a deflated archive beats zlib inflating it alone on every core. (Not ruled
    // out is not a promise: an extraction does both, and receives the bytes too.)
    ...(inflate.length ? { zlib_inflate_all_cores_s: Number(median(inflate).toFixed(3)) } : {}),
    dd_target_ruled_out: (inflate.length ? median(inflate) : 0) > 1.5 * median(dd),
    by_hand_target_ruled_out: 0.7 * median(hand) < Math.max(median(dd), inflate.length ? median(inflate) : 0),
  };
  console.log(
    `${kind}: studio ${studio.map((s) => s.wall_s.toFixed(2)).join(' ')} s; dd ${dd.map((t) => t.toFixed(2)).join(' ')} s; curl+bsdtar+sync ${hand.map((t) => t.toFixed(2)).join(' ')} s${inflate.length ? `; zlib alone on every core ${inflate.map((t) => t.toFixed(2)).join(' ')} s` : ''}`,
  );
  figures[kind] = result;
  pass &&=
    result.dd_ratio <= 1.5 &&
    result.by_hand_ratio <= 0.7 &&
    result.disk_ratio <= 1.05 &&
    result.peak_rss_mb < 200;
}

// Cuts: the stored archive broken off once at 30, 60 and 99 %, then resumed; against bsdtar's images.
const reference = mkdtempSync(join(tmpdir(), 'bench-ref-'));
await byHand('stored', reference);
const digest = (file: string) => createHash('sha1').update(readFileSync(file)).digest('hex');
const expected = new Map(
  readdirSync(join(reference, 'x', 'images')).map((f) => [f, digest(join(reference, 'x', 'images', f))]),
);
const cuts: Record<string, { resumes: number; identical: number; seconds: number }> = {};
for (const share of [0.3, 0.6, 0.99]) {
  const keep = mkdtempSync(join(tmpdir(), 'bench-cut-'));
  const result = await studioIngest(`stored~cut${share}`, keep);
  const images = join(result.folder, 'images');
  const identical = readdirSync(images).filter((f) => expected.get(f) === digest(join(images, f))).length;
  cuts[String(share)] = { resumes: result.resumes, identical, seconds: Number(result.wall_s.toFixed(2)) };
  pass &&= identical === expected.size && result.resumes >= 1;
  rmSync(keep, { recursive: true, force: true });
}
rmSync(reference, { recursive: true, force: true });
server.close();
console.log(`load average (1 min): ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after`);
console.log(
  JSON.stringify({ bench: 'ingest', ...figures, cuts, load_1min: loadBefore, target: TARGET, pass }),
);
