// Download: what the user waits for between pressing "Download now" (batches.download) on a
// completed batch of the built-in sandbox and the batch being in the library (state `done`, its
// images checked and fsynced, its folder published), for a batch of about 500 MB: 110 images of
// about 4.5 MB (1K renders carrying 4.4 MB of random padding, the sandbox's imagePaddingBytes).
// Three ways, in one run, alternating the order, median of three each:
//  (a) no page open: nothing subscribed to the studio's events;
//  (b) a page open: a consumer on the browser-mode /api/events stream, over loopback HTTP in this
//      process (the studio runs in its own, as in browser mode), reading it with the renderer's own
//      reader and parsing every event's JSON as the window does; it counts download.progress;
//  (c) by hand: `curl -s -o` of the same batch ZIP URL with the same key, `bsdtar -xf` into a
//      folder and GNU `sync FILE...` over what it extracted (as bench/ingest.bench.ts does).
// Both studio runs poll batches.get every 20 ms for the end, as a window would see it.
// Prints; judges nothing on time: it fails only when a download fails. BENCH_ITEMS=10 makes a quick try.
// Needs the build (out/main/web.js): rebuild after changing the studio or the sandbox.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { readEventStream } from '../src-renderer/app/event-stream';
import type { BatchView } from '../src-shared/batch-view';
import { median, startStudio, type StudioProcess } from './studio-session';

const RUNS = 3;
const ITEMS = Number(process.env.BENCH_ITEMS) || 110;
const PADDING_BYTES = 4_400_000;
/** The built-in sandbox profile's demo key (src-main/services/profiles): curl uses the same one. */
const SANDBOX_KEY = 'sk-sandbox-alice';

for (const tool of ['curl', 'bsdtar']) {
  if (spawnSync(tool, ['--version']).error) {
    console.log(`${tool} is not installed: the reference cannot run`);
    console.log(JSON.stringify({ bench: 'download', error: `${tool} missing`, pass: false }));
    process.exit(1);
  }
}

// Never a blocking exec: the bench's pooled loopback sockets must see the studio close them meanwhile.
const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const pngsUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.png')).length;

/** A draft of ITEMS prompts, as the Compose screen sends it. */
function draft(n: number) {
  return {
    id: `bench-download-${n}`,
    name: `Download bench ${n}`,
    model: 'imgvendor-3.1-flash-image',
    items: Array.from({ length: ITEMS }, (_, i) => ({
      customId: `d${n}-${String(i + 1).padStart(3, '0')}`,
      prompt: `a ceramic mug number ${i + 1} on an oak table, soft morning light`,
      outputCount: 1,
      referenceIds: [],
    })),
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png' as const,
  };
}

/** Polls until every batch is completed on the studio's side, ready for "Download now". */
async function untilCompleted(studio: StudioProcess, ids: string[]): Promise<void> {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    const views = await Promise.all(ids.map((id) => studio.call('batches.get', { id })));
    const bad = views.find((v) => v.terminal && v.status !== 'completed');
    if (bad) throw new Error(`batch ${bad.id} ended ${bad.status}`);
    if (views.every((v) => v.status === 'completed' && v.successCount === ITEMS)) return;
    if (Date.now() > deadline) throw new Error('the batches did not complete in 15 minutes');
    await sleep(500);
  }
}

/** Follows /api/events as the browser-mode window does, counting one batch's download.progress. */
async function openPage(studio: StudioProcess, batchId: string) {
  const abort = new AbortController();
  const counts = { progress: 0, events: 0 };
  const res = await fetch(`${studio.origin}/api/events`, {
    headers: { authorization: `Bearer ${studio.token}` },
    signal: abort.signal,
  });
  if (!res.ok || !res.body) throw new Error(`events answered ${res.status}`);
  // The studio subscribes this stream before it sends the headers: from here on, nothing is missed.
  const reading = readEventStream(
    res.body,
    ({ event, data }) => {
      const payload = JSON.parse(data) as { batchId?: string };
      counts.events++;
      if (event === 'download.progress' && payload.batchId === batchId) counts.progress++;
    },
    {},
  ).catch(() => undefined);
  return {
    counts,
    async close() {
      abort.abort();
      await reading;
    },
  };
}

/** "Download now", then batches.get until the batch is in the library: ms, and the progress events seen. */
async function studioDownload(studio: StudioProcess, libraryDir: string, id: string, withPage: boolean) {
  const page = withPage ? await openPage(studio, id) : undefined;
  const started = performance.now();
  await studio.call('batches.download', { id });
  let view: BatchView;
  for (;;) {
    view = await studio.call('batches.get', { id });
    if (view.download.state === 'done') break;
    if (view.download.state === 'failed' || view.download.state === 'unavailable')
      throw new Error(`download of ${id} ${view.download.state}: ${view.download.error?.message ?? ''}`);
    await sleep(20);
  }
  const ms = performance.now() - started;
  // Give the stream a moment for the last events written before the end was seen.
  await sleep(200);
  await page?.close();
  const folder = view.download.folder!;
  const images = pngsUnder(isAbsolute(folder) ? folder : join(libraryDir, folder));
  if (view.download.images !== ITEMS || images !== ITEMS)
    throw new Error(`${id}: ${view.download.images} images recorded, ${images} in the folder, of ${ITEMS}`);
  return { ms, progress: page?.counts.progress, events: page?.counts.events };
}

/** By hand: curl the ZIP, bsdtar it into a folder, sync every file and the folder. */
async function byHand(zipUrl: string, scratch: string): Promise<{ ms: number; bytes: number }> {
  const dir = join(scratch, 'reference');
  const zip = join(scratch, 'reference.zip');
  mkdirSync(dir);
  try {
    const started = performance.now();
    await exec('curl', ['-sf', '-o', zip, '-H', `Authorization: Bearer ${SANDBOX_KEY}`, zipUrl]);
    await exec('bsdtar', ['-xf', zip, '-C', dir]);
    const paths = readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => join(dir, p));
    await exec('sync', ['--', dir, ...paths]);
    const ms = performance.now() - started;
    if (pngsUnder(dir) !== ITEMS) throw new Error(`the reference extracted ${pngsUnder(dir)} images`);
    return { ms, bytes: statSync(zip).size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(zip, { force: true });
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'bench-download-'));
let studio: StudioProcess | undefined;
try {
  studio = await startStudio({
    dataDir: join(scratch, 'data'),
    env: {
      STUDIO_SANDBOX_IMAGE_PADDING_BYTES: String(PADDING_BYTES),
      STUDIO_SANDBOX_ITEM_FAILURE_RATE: '0',
    },
  });
  // Nothing is fetched by itself: each download starts at the bench's "Download now".
  const { libraryDir } = await studio.call('settings.update', { autoDownload: false });
  const { sandboxUrl } = await studio.call('app.info');
  const ids: string[] = [];
  for (let n = 0; n < RUNS * 2; n++) {
    const { batch } = await studio.call('batches.submit', { draft: draft(n) });
    if (!batch) throw new Error('the sandbox did not create the batch');
    ids.push(batch.id);
  }
  const preparing = performance.now();
  await untilCompleted(studio, ids);
  console.log(
    `${RUNS * 2} batches of ${ITEMS} images completed in ${seconds(performance.now() - preparing)} s`,
  );

  const loadBefore = loadavg()[0]!;
  const noPage: number[] = [];
  const pageOpen: number[] = [];
  const progress: number[] = [];
  const reference: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const [plain, watched] = [ids[run * 2]!, ids[run * 2 + 1]!];
    // Alternating, so that no way always finds the caches warmed, or the disk busy, by another.
    const steps: (() => Promise<void>)[] = [
      async () => void noPage.push((await studioDownload(studio!, libraryDir, plain, false)).ms),
      async () => {
        const r = await studioDownload(studio!, libraryDir, watched, true);
        pageOpen.push(r.ms);
        progress.push(r.progress!);
        console.log(`  page open: ${r.events} events, ${r.progress} download.progress`);
      },
      async () => {
        const r = await byHand(`${sandboxUrl}/v1/images/batches/${plain}/download`, scratch);
        reference.push(r.ms);
        bytes = r.bytes;
      },
    ];
    for (const step of run % 2 === 0 ? steps : [...steps].reverse()) await step();
    console.log(
      `run ${run + 1}: no page ${seconds(noPage[run]!)} s, page open ${seconds(pageOpen[run]!)} s, curl + bsdtar + sync ${seconds(reference[run]!)} s`,
    );
  }
  const [a, b, c] = [median(noPage), median(pageOpen), median(reference)];
  console.log(
    `zip: ${(bytes / 1e6).toFixed(1)} MB, ${ITEMS} images; load average (1 min) ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after`,
  );
  console.log(
    JSON.stringify({
      bench: 'download',
      bytes,
      items: ITEMS,
      ms_no_page: Math.round(a),
      ms_page_open: Math.round(b),
      page_overhead_ratio: Number((b / a).toFixed(3)),
      progress_events_per_batch: median(progress),
      ms_reference_curl_unzip: Math.round(c),
      ratio_vs_reference: Number((a / c).toFixed(3)),
      load_1min: Number(loadBefore.toFixed(2)),
    }),
  );
} catch (err) {
  const cause = (err as Error).cause as Error | undefined;
  console.log(`download bench failed: ${(err as Error).message}${cause ? ` (${cause.message})` : ''}`);
  console.log(JSON.stringify({ bench: 'download', error: (err as Error).message, pass: false }));
  process.exitCode = 1;
} finally {
  await studio?.stop();
  rmSync(scratch, { recursive: true, force: true });
}
