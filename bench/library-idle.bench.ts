// What a studio costs while nobody works, polling its library for other studios' changes as it does
// on a network share (issue 35): a library of 5,000 batch folders, the studio started in browser mode
// with STUDIO_LIBRARY_WATCH=poll, let settle, then its process's CPU time over five minutes of idle, as a
// share of one core. Beside it, in the same run and the same minutes: the same studio on an empty
// library (what the studio costs idle anyway: its sandbox, its timers), a plain Node loop that stats
// the same files on the same schedule (the polling's floor), and an idle Node process.
// The window is five minutes by default: the studio's sweep of every folder (its safety net for
// writers that keep no journal) runs every one to ten minutes, spaced by what it takes
// (library-watch.ts), so a one-minute window may hold none and show too little.
// BENCH_IDLE_IMAGES_PER_FOLDER (200: a million images) and BENCH_IDLE_SECONDS (300) change the size
// and the window.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { makeLibrary } from './make-library';
import { startStudio, type StudioProcess } from './studio-session';

const TARGET_PCT = 1;
const FOLDERS = 5000;
const perFolder = Number(process.env.BENCH_IDLE_IMAGES_PER_FOLDER ?? 200);
const seconds = Number(process.env.BENCH_IDLE_SECONDS ?? 300);
const cacheDir = process.env.BENCH_LIBRARY_CACHE ?? join(homedir(), '.cache', 'batch-image-studio-bench');

/** A process's CPU time (user + system) in seconds, from /proc: a child's, as the kernel counts it. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the line (11 and 12 after the command), in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A plain Node process running `code`, for the references. */
function node(code: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['-e', code], { env: { ...process.env, ...env }, stdio: 'inherit' });
}

/**
 * The polling's floor, written plainly: each second the library folder, the journals' folder and
 * the journals; each minute every folder's five signature files. What the studio does at least.
 */
const STAT_LOOP = `
const { statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const root = process.env.ROOT;
const stat = (p) => { try { return statSync(p, { throwIfNoEntry: false }); } catch { return undefined; } };
const changes = join(root, '.studio', 'changes');
setInterval(() => {
  stat(root); stat(changes);
  try { for (const f of readdirSync(changes)) stat(join(changes, f)); } catch {}
}, 1000);
const sweep = () => {
  for (const d of readdirSync(root)) {
    if (d.startsWith('.')) continue;
    for (const f of ['batch.json', 'review.json', 'review', 'images', 'hashes.json']) stat(join(root, d, f));
  }
};
sweep();
setInterval(sweep, 60000);
`;

async function settle(studio: StudioProcess, images: number): Promise<void> {
  // The first build of the catalog (kept between runs in the bench's data folder), then quiet.
  for (;;) {
    const overview = await studio.call('library.overview');
    if (!overview.indexing && overview.images === images) break;
    console.log(`  settling: ${overview.images} of ${images} images indexed`);
    await new Promise((r) => setTimeout(r, 5000));
  }
  await new Promise((r) => setTimeout(r, 5000));
}

const library = await makeLibrary(FOLDERS, perFolder);
console.log(`library: ${library.batches} folders, ${library.images} images at ${library.root}`);
// Three other studios' journals, each naming 200 folders: what a team's library holds. Read once,
// then only looked at (their stamps) every second.
const journals = join(library.root, '.studio', 'changes');
mkdirSync(journals, { recursive: true });
for (const studio of ['bench-a', 'bench-b', 'bench-c'])
  writeFileSync(
    join(journals, `${studio}.json`),
    JSON.stringify({
      format: 'batch-image-studio.changes/1',
      studio,
      seq: 200,
      since: 0,
      entries: Array.from({ length: 200 }, (_, i) => ({ seq: i + 1, folder: `no such folder ${i}` })),
    }),
  );

const env = { STUDIO_LIBRARY_WATCH: 'poll' };
// Data folders kept between runs: the catalog (wherever it lives) is built once, not every run.
const dataDir = join(cacheDir, `idle-data-${FOLDERS}x${perFolder}`);
const emptyData = join(cacheDir, 'idle-data-empty');
mkdirSync(dataDir, { recursive: true });
rmSync(emptyData, { recursive: true, force: true });
const studio = await startStudio({ dataDir, env });
const empty = await startStudio({ dataDir: emptyData, env });
try {
  await studio.call('settings.update', { libraryDir: library.root });
  await settle(studio, library.images);
  await settle(empty, 0);
  const statLoop = node(STAT_LOOP, { ROOT: library.root });
  const idle = node('setInterval(() => {}, 1000)');
  await new Promise((r) => setTimeout(r, 3000));
  const pids = { studio: studio.pid, empty: empty.pid, statLoop: statLoop.pid!, idle: idle.pid! };
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
  const t0 = process.hrtime.bigint();
  console.log(`measuring ${seconds} s of idle…`);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const pct = Object.fromEntries(
    Object.entries(pids).map(([k, pid]) => [
      k,
      Number(((100 * (cpuSeconds(pid) - before[k]!)) / wall).toFixed(2)),
    ]),
  ) as Record<keyof typeof pids, number>;
  statLoop.kill();
  idle.kill();
  console.log(`studio, ${library.batches} folders, polling:    ${pct.studio} % of a core`);
  console.log(`studio, empty library, polling:      ${pct.empty} % of a core`);
  console.log(`plain stat loop, same files, period: ${pct.statLoop} % of a core`);
  console.log(`idle Node process:                   ${pct.idle} % of a core`);
  console.log(
    JSON.stringify({
      bench: 'library-idle',
      folders: library.batches,
      images: library.images,
      seconds: Math.round(wall),
      studio_pct: pct.studio,
      studio_empty_library_pct: pct.empty,
      stat_loop_pct: pct.statLoop,
      idle_node_pct: pct.idle,
      target: '< 1 % of a core idle',
      pass: pct.studio < TARGET_PCT,
    }),
  );
} finally {
  await studio.stop();
  await empty.stop();
  rmSync(journals, { recursive: true, force: true });
}
