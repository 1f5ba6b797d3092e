// Ingest: a batch ZIP the size users download (200 1K PNGs of about 3 MB each, about 665 MB),
// from a gateway stand-in in ANOTHER process that streams it chunked, without a Content-Length, as
// deployed gateways do (bench/ingest-gateway.ts), to a verified, durable library folder, by the
// studio's real streaming ingest in its own process (bench/ingest-child.ts): stored with data
// descriptors, as streaming writers emit; deflated with sizes in the local headers, as general zip
// tools write to a file; and deflated with data descriptors, as Go's archive/zip writes to a
// stream. In the same run, alternating the order, median of five runs, beside references on the
// same bytes from the same gateway:
//  - by hand: `curl -o` the archive, `bsdtar -xf` it (which checks each CRC-32), GNU `sync FILE...`
//    over every file and folder extracted (wall time and the CPU-seconds of all three);
//  - the disk's durable floor: `dd conv=fsync` writing the archive's bytes once;
//  - the network read alone: `curl -o /dev/null`;
//  - for each deflated archive, zlib alone inflating its entries in memory on every core
//    (bench/inflate-floor.ts): the CPU floor of any extraction on this machine.
// Then the same stored archive cut by the gateway at 30, 60 and 99 % of its bytes, resumed by Range:
// every image must come out byte-identical to bsdtar's extraction of the whole archive.
// Judged (issue 36): at or under curl + bsdtar + sync; deflated within 1.3x of zlib's all-cores floor
// plus the network read; stored within 1.5x of dd (issue 27); peak disk held <= 1.05x the archive;
// peak RSS < 200 MB; cuts byte-identical.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { largeBatchZip } from './make-batch-zip';

// Five: on this shared 2-core machine one run of the same ingest varies by a tenth of a second either
// way, and so does its reference.
const RUNS = 5;
const TARGET =
  'by_hand_ratio <= 1, deflated zlib_plus_network_ratio <= 1.3, stored dd_ratio <= 1.5, disk_ratio <= 1.05, peak_rss_mb < 200, cuts byte-identical';

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

// The gateway stand-in, in its own process, streaming without a Content-Length
// (bench/ingest-gateway.ts).
const gateway = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    join(import.meta.dirname, 'ingest-gateway.ts'),
    ...Object.entries(zips).map(([k, z]) => `${k}=${z.file}`),
  ],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const port = await new Promise<number>((resolve, reject) => {
  let out = '';
  gateway.stdout.on('data', (d: Buffer) => {
    out += d;
    if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]!) as { port: number }).port);
  });
  gateway.on('exit', (code) => reject(new Error(`the gateway process ended (${code})`)));
});
const base = `http://127.0.0.1:${port}`;

type ChildResult = {
  wall_s: number;
  cpu_s: number;
  user_s: number;
  sys_s: number;
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

/** Runs a shell line, timed (wall, and the CPU of everything it ran), without blocking this process. */
function timed(line: string): Promise<{ wall: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // `times` on fd 3: the CPU of the line's processes (its second line: children, user and system).
    const child = spawn('bash', ['-c', `${line}\ntimes >&3`], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    let times = '';
    child.stdio[3]!.on('data', (d: Buffer) => (times += d));
    child.on('close', (code) => {
      const wall = (performance.now() - started) / 1000;
      const seconds = [...(times.split('\n')[1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map(
        (m) => Number(m[1]) * 60 + Number(m[2]),
      );
      if (code === 0) resolve({ wall, cpu: seconds.reduce((a, b) => a + b, 0) });
      else reject(new Error(`${line}: ${code}`));
    });
  });
}

/**
 * Before each timed step: the disk settled from the step before. By hand leaves its downloaded
 * archive unsynced (a person would not sync a file they delete), and every step deletes what it
 * wrote, which on a disk mounted with online discard means discards at the next journal commit.
 * Left running, that writeback and those discards landed on whichever step came next: a studio
 * ingest right after by hand took 0.05–0.2 s and 0.1 system CPU-s more than one after a sync
 * (measured for issue 36). `sync` waits for both; the pause lets the flusher threads go idle.
 *
 * Then the archive the gateway serves is read once, so that every step finds it in memory: this VM
 * pages out file pages left unread for a minute (a DAMON pageout scheme), and the first step of
 * each archive, always the studio's, paid for the gateway stand-in's reads from disk (2.29, 2.89 and
 * 2.92 s where the other runs took 0.96–1.46, 2.11–2.25 and 2.36–2.56; `fincore` showed half the
 * stored archive paged out). A deployed gateway's disk is not on the user's machine.
 */
async function settle(kind: keyof typeof zips): Promise<void> {
  spawnSync('sync');
  spawnSync('cat', [zips[kind].file], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 300));
}

/** The disk's floor: the archive's bytes written once, durably, by dd from the gateway. */
async function ddFloor(kind: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dd-'));
  try {
    return (await timed(`curl -s ${base}/${kind} | dd of=${dir}/zip bs=1M conv=fsync status=none`)).wall;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The network read alone: curl taking the archive from the gateway and dropping it. */
async function networkRead(kind: string): Promise<number> {
  return (await timed(`curl -s -o /dev/null ${base}/${kind}`)).wall;
}

/** zlib alone inflating the deflated archive's entries in memory on every core (bench/inflate-floor.ts). */
function inflateFloor(file: string): Promise<{ seconds: number; cpu_s: number; lanes: number }> {
  return runScript('inflate-floor.ts', [file]);
}

/** By hand: curl, bsdtar, sync every file and folder. */
async function byHand(kind: string, keep?: string): Promise<{ wall: number; cpu: number }> {
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'bench-hand-'));
  try {
    return await timed(
      `set -e; curl -s -o ${dir}/batch.zip ${base}/${kind}; mkdir -p ${dir}/x; bsdtar -xf ${dir}/batch.zip -C ${dir}/x; find ${dir}/x -print0 | xargs -0 sync --`,
    );
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

const r2 = (x: number) => Number(x.toFixed(2));
const r3 = (x: number) => Number(x.toFixed(3));
const loadBefore = loadavg()[0]!;
const figures: Record<string, unknown> = {};
let pass = true;
for (const kind of ['stored', 'deflated', 'deflated_descriptors'] as const) {
  const studio: ChildResult[] = [];
  const dd: number[] = [];
  const hand: { wall: number; cpu: number }[] = [];
  const net: number[] = [];
  const inflate: number[] = [];
  const inflateCpu: number[] = [];
  let lanes = 0;
  for (let run = 0; run < RUNS; run++) {
    // Alternating the order, so that none always finds the page cache warmed by another.
    const order = run % 2 === 0 ? ['studio', 'dd', 'hand', 'net'] : ['net', 'hand', 'dd', 'studio'];
    for (const what of order) {
      await settle(kind);
      if (what === 'studio') studio.push(await studioIngest(kind));
      else if (what === 'dd') dd.push(await ddFloor(kind));
      else if (what === 'net') net.push(await networkRead(kind));
      else hand.push(await byHand(kind));
    }
    if (kind !== 'stored') {
      await settle(kind);
      const floor = await inflateFloor(zips[kind].file);
      inflate.push(floor.seconds);
      inflateCpu.push(floor.cpu_s);
      lanes = floor.lanes;
    }
  }
  const zipBytes = statSync(zips[kind].file).size;
  const wall = median(studio.map((s) => s.wall_s));
  const handWall = median(hand.map((h) => h.wall));
  const deflated = inflate.length > 0;
  // The deflated floor on this machine: zlib inflating on every core, plus the bytes' network read.
  const floor = deflated ? median(inflate) + median(net) : undefined;
  const result = {
    zip_mb: r2(zipBytes / 1e6),
    studio_s: r3(wall),
    studio_cpu_s: r2(median(studio.map((s) => s.cpu_s))),
    studio_user_s: r2(median(studio.map((s) => s.user_s))),
    studio_sys_s: r2(median(studio.map((s) => s.sys_s))),
    references: {
      curl_bsdtar_sync_s: r3(handWall),
      curl_bsdtar_sync_cpu_s: r2(median(hand.map((h) => h.cpu))),
      dd_fsync_s: r3(median(dd)),
      network_read_s: r3(median(net)),
      ...(deflated
        ? {
            zlib_inflate_all_cores_s: r3(median(inflate)),
            zlib_inflate_cpu_s: r2(median(inflateCpu)),
            zlib_lanes: lanes,
          }
        : {}),
    },
    by_hand_ratio: r2(wall / handWall),
    dd_ratio: r2(wall / median(dd)),
    ...(floor ? { zlib_plus_network_ratio: r2(wall / floor) } : {}),
    disk_ratio: r3(Math.max(...studio.map((s) => s.peak_disk_bytes)) / zipBytes),
    peak_rss_mb: Math.round(Math.max(...studio.map((s) => s.peak_rss_mb))),
    start_rss_mb: Math.round(median(studio.map((s) => s.start_rss_mb))),
  };
  // Issue 36: at or under by hand, and a deflated archive within 1.3x of zlib's floor plus the
  // network read; issue 27's: stored within 1.5x of dd (dd cannot inflate: not asked of deflated).
  const ok =
    result.by_hand_ratio <= 1 &&
    (floor ? wall <= 1.3 * floor : result.dd_ratio <= 1.5) &&
    result.disk_ratio <= 1.05 &&
    result.peak_rss_mb < 200;
  console.log(
    `${kind}: studio ${studio.map((s) => `${s.wall_s.toFixed(2)} s (${s.cpu_s.toFixed(2)} CPU-s: ${s.user_s.toFixed(2)} user, ${s.sys_s.toFixed(2)} sys)`).join(', ')}; ` +
      `curl+bsdtar+sync ${hand.map((h) => `${h.wall.toFixed(2)} s (${h.cpu.toFixed(2)} CPU-s)`).join(', ')}; ` +
      `dd ${dd.map((t) => t.toFixed(2)).join(' ')} s; network read ${net.map((t) => t.toFixed(2)).join(' ')} s` +
      (deflated ? `; zlib alone on every core ${inflate.map((t) => t.toFixed(2)).join(' ')} s` : ''),
  );
  if (floor)
    // What the deflated floor is, and what it leaves out, beside the figure it judges.
    console.log(
      `${kind}: zlib floor + network = ${median(inflate).toFixed(2)} s (zlib inflating every entry ` +
        `from memory to memory, ${lanes} at once, ${median(inflateCpu).toFixed(2)} CPU-s; no CRC-32, no ` +
        `disk) + ${median(net).toFixed(2)} s (curl reading the archive to /dev/null), run one after the ` +
        `other: ${floor.toFixed(2)} s; studio ${wall.toFixed(2)} s = ${(wall / floor).toFixed(2)}x, which ` +
        `also checks every CRC-32 and writes and fsyncs ${(zipBytes / 1e6).toFixed(0)} MB`,
    );
  figures[kind] = { ...result, pass: ok };
  pass &&= ok;
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
gateway.kill();
console.log(`load average (1 min): ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after`);
console.log(
  JSON.stringify({ bench: 'ingest', ...figures, cuts, load_1min: loadBefore, target: TARGET, pass }),
);
