// Where a Library open's time goes in the page (issue 26): one open of the bench's library,
// traced with Chromium's own timeline (CDP Tracing) and a CPU profile, from the click to the top
// row of thumbnails drawn. Prints the main thread's tasks in that span (what ran, and the gaps
// where it waited), the timers, every request with its priority and end, and the functions the
// CPU profile spent the time in. Run by the gallery bench with BENCH_LIBRARY_ONLY=trace (warm;
// BENCH_TRACE_COLD=1 empties the thumbnail cache first; BENCH_TRACE_OUT=file.json keeps the trace
// for DevTools' Performance panel, and the CPU profile beside it). BENCH_TRACE_SEARCH=word traces a
// search instead; with BENCH_TRACE_BURST=1 the gallery is culled first, as the gallery bench does
// before it searches. Layouts forced by a script are printed with the script's stack.
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { markBurst, openLibrary, prepare, search, startedStudio } from './library-steps';
import type { BenchLibrary } from './make-library';
import { dataDirFor } from './library-scenario';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; name?: string };
}

/** Traces one open of `library` (warm unless `cold`), and prints where its time went. */
export async function traceLibraryOpen(
  library: BenchLibrary,
  cold: boolean,
  out?: string,
  /** Trace a search for this word after the open, from its last key, instead of the open. */
  word?: string,
  /** Cull first as the gallery bench does (a burst of marks), then trace the search from its first click. */
  burst = false,
): Promise<void> {
  const data = dataDirFor(library);
  const dataDir = data.dir;
  try {
    await prepare(library, dataDir);
    if (!cold) {
      // A first open fills the thumbnail cache: the traced one is warm.
      const s = await startedStudio(dataDir);
      await openLibrary(s.page, library.images);
      await s.stop();
    }
    const session = await startedStudio(dataDir);
    try {
      const cdp = await session.page.context().newCDPSession(session.page);
      let opened: { ms: number } | undefined;
      if (burst) {
        opened = await openLibrary(session.page, library.images);
        await sleep(4000);
        await markBurst(session, () => 0);
      }
      const events: TraceEvent[] = [];
      cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
      const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      await cdp.send('Tracing.start', {
        transferMode: 'ReportEvents',
        traceConfig: {
          includedCategories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'v8.execute',
            'blink.user_timing',
            'loading',
            'toplevel',
            'blink',
            'netlog',
            'disabled-by-default-devtools.timeline.stack',
          ],
        },
      });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      const open = opened ?? (await openLibrary(session.page, library.images));
      let ms = open.ms;
      let from = (e: TraceEvent) => e.name === 'EventDispatch' && e.args?.data?.type === 'click';
      if (word) {
        // A search instead: from the last key typed to every place on screen a match (issue 36).
        const began = performance.now();
        const found = await search(session, library, word);
        ms = burst ? performance.now() - began : (found.exactMs ?? found.ms ?? 1000);
        console.log(
          `search "${word}", traced: exact ${found.exactMs?.toFixed(0)} ms, rows ${found.ms?.toFixed(0)} ms`,
        );
        from = (e) => e.name === 'EventDispatch' && e.args?.data?.type === (burst ? 'click' : 'input');
      }
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
      await cdp.send('Tracing.end');
      await done;
      if (out) writeFileSync(out, JSON.stringify(events));
      // The CPU profile beside it, for DevTools or a look at one task.
      if (out) writeFileSync(out.replace(/(\.json)?$/, '.cpuprofile'), JSON.stringify(profile));
      if (!word) console.log(`${cold ? 'cold' : 'warm'} open, traced: ${open.ms.toFixed(0)} ms`);
      report(events, ms, profile, from, !!word && !burst);
    } finally {
      await session.stop();
    }
  } finally {
    data.done();
  }
}

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { url: string; functionName: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

function report(
  events: TraceEvent[],
  openMs: number,
  profile: CpuProfile,
  isStart: (e: TraceEvent) => boolean,
  last: boolean,
) {
  const starts = events.filter(isStart);
  const click = last ? starts.at(-1) : starts[0];
  if (!click) return console.log('no start event in the trace');
  const { pid, tid } = click;
  const t0 = click.ts;
  const end = t0 + openMs * 1000;
  const at = (ts: number) => ((ts - t0) / 1000).toFixed(1).padStart(7);
  const main = events.filter((e) => e.pid === pid && e.tid === tid && e.ts >= t0 - 5000 && e.ts <= end);
  // Chromium nests a RunTask in each ThreadControllerImpl::RunTask: the outer ones, where they are.
  const outer = main.some((e) => e.name === 'ThreadControllerImpl::RunTask')
    ? 'ThreadControllerImpl::RunTask'
    : 'RunTask';
  const tasks = main.filter((e) => e.ph === 'X' && e.name === outer);
  console.log('main-thread tasks of 2 ms or more from the click (ms from the click: start, length, what):');
  let busy = 0;
  for (const task of tasks) {
    busy += (task.dur ?? 0) / 1000;
    if ((task.dur ?? 0) < 2000) continue;
    const inside = main
      .filter(
        (e) =>
          e !== task &&
          e.ph === 'X' &&
          e.ts >= task.ts &&
          e.ts < task.ts + (task.dur ?? 0) &&
          (e.dur ?? 0) >= 1000,
      )
      .filter((e) => !['RunTask', 'ThreadControllerImpl::RunTask'].includes(e.name))
      .slice(0, 6)
      .map((e) => {
        const d = e.args?.data ?? {};
        const what =
          (d.url as string | undefined)?.split('/').pop() ??
          (d.functionName as string | undefined) ??
          (d.type as string | undefined) ??
          '';
        return `${e.name}${what ? `(${what})` : ''} ${((e.dur ?? 0) / 1000).toFixed(1)}`;
      });
    console.log(`  ${at(task.ts)} ${((task.dur ?? 0) / 1000).toFixed(1).padStart(6)}  ${inside.join(', ')}`);
  }
  for (const e of main) {
    const stack = (
      e.args as {
        beginData?: {
          stackTrace?: { functionName: string; url: string; lineNumber: number; columnNumber: number }[];
        };
      }
    )?.beginData?.stackTrace;
    if (!stack?.length || !['Layout', 'UpdateLayoutTree'].includes(e.name)) continue;
    console.log(
      `  forced ${e.name} at ${at(e.ts)} ${((e.dur ?? 0) / 1000).toFixed(1)} ms: ${stack
        .slice(0, 6)
        .map((f) => `${f.functionName || '?'}@${f.url.split('/').pop()}:${f.lineNumber}:${f.columnNumber}`)
        .join(' < ')}`,
    );
  }
  console.log(`  main thread busy ${busy.toFixed(0)} ms of ${openMs.toFixed(0)} ms`);
  const sends = events.filter((e) => e.name === 'ResourceSendRequest' && e.ts >= t0 && e.ts <= end);
  const finishes = new Map(
    events
      .filter((e) => e.name === 'ResourceFinish' && e.ts >= t0)
      .map((e) => [e.args?.data?.requestId as string, e.ts]),
  );
  console.log('requests (ms from the click: sent, finished, priority, path):');
  for (const s of sends) {
    const d = s.args?.data ?? {};
    const done = finishes.get(d.requestId as string);
    const path = String(d.url ?? '').replace(/^https?:\/\/[^/]+/, '');
    const name = path.includes('/images/') ? decodeURIComponent(path).split('/').slice(-3).join('/') : path;
    console.log(
      `  ${at(s.ts)} ${done ? at(done) : '      -'}  ${String(d.priority ?? '').padEnd(8)} ${name.slice(0, 90)}`,
    );
  }
  const timers = events.filter(
    (e) =>
      e.pid === pid && (e.name === 'TimerInstall' || e.name === 'TimerFire') && e.ts >= t0 && e.ts <= end,
  );
  console.log(
    `timers: ${timers.map((e) => `${e.name === 'TimerInstall' ? 'set' : 'fired'} ${at(e.ts).trim()}${e.args?.data?.timeout !== undefined ? ` (${String(e.args.data.timeout)} ms)` : ''}`).join(', ')}`,
  );
  // The CPU profile: self time by function (and file), within the open.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let t = profile.startTime;
  const from = t0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i]!;
    if (t < from || t > end) return;
    const n = byId.get(id)!;
    const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  console.log('CPU profile, self time within the open (ms):');
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${ms.toFixed(1).padStart(6)}  ${k}`);
}
