// Library: the gallery in Chromium over the studio in browser mode, on generated libraries of 10,000
// and 100,000 images (bench/make-library.ts: batch folders as the studio writes them, real PNGs of
// five aspect ratios). Every figure is what the page shows a person, timed from their input event
// to the end of the frame that shows the answer; the targets are issue 13's table, written out here
// as the reference the app is judged by, at both sizes, and the growth from one size to the other.
// BENCH_LIBRARY_SIZES=100000,1000000 measures issue 26's sizes: at a million images issue 26's
// table applies (warm open < 0.5 s, cold < 1.5 s, search < 200 ms, the last screen after a fling
// < 2 s, RSS < 500 MB), and the growth from 100k to 1M is judged as 10k to 100k is.
// BENCH_LIBRARY_SIZES=10000 measures one size only (for development): growth is then unjudged and
// the run cannot pass. BENCH_LIBRARY_ONLY=open measures the opens only (cold and warm, with where
// their time went), and cannot pass either; BENCH_LIBRARY_ONLY=trace traces one open of the first
// size (library-open-trace.ts).
// Issue 36's figures are judged at every size: search to the exact grid and its count, the count
// never behind its rows, the longest task while culling or searching, DOM nodes, and the scroll bar
// dragged through the list in 100 steps beside a plain <img> page dragged the same way
// (scroll-drag.ts). BENCH_LIBRARY_ONLY=work measures all but the opens (cannot pass), and
// BENCH_LIBRARY_KEEP_DATA=1 keeps the studio's data folder (its catalog) beside the library between
// runs: a million images are catalogued once, not every run.
import { loadavg } from 'node:os';
import {
  measureLibrary,
  measureLibraryOpens,
  type LibraryFigures,
  type Requests,
  type SlowFrames,
} from './library-scenario';
import { traceLibraryOpen } from './library-open-trace';
import { makeLibrary } from './make-library';
import { plainGridOpens } from './plain-grid';
import { DRAG_STEPS, plainGridDrag, type Drag } from './scroll-drag';
import { median, p95 } from './studio-session';

const MB = 1024 * 1024;
/** Issue 13's targets. `max`: the figure must be below it; growth: at most. */
const TARGETS = {
  open_warm_ms: {
    max: 1000,
    what: 'Library opened → top row of thumbnails decoded and visible, warm thumbnail cache (median of 3)',
  },
  open_cold_ms: { max: 3000, what: 'the same, thumbnail cache emptied (median of 3)' },
  mark_p95_ms: { max: 50, what: '20 marks at 120 ms: keypress → badge, p95' },
  burst_longest_task_ms: {
    max: 100,
    what: 'the same burst: longest main-thread task (longtask entries, 50 ms and up)',
  },
  burst_api_worst_ms: {
    max: 150,
    what: 'the same burst: settings.get over the loopback API beside it, worst latency',
  },
  burst_bytes: { max: 2 * MB, what: 'the same burst: bytes received by the page' },
  search_english_ms: {
    max: 300,
    what: 'last keystroke → correct results, debounce included, English word (worst of 3 words)',
  },
  search_chinese_ms: { max: 300, what: 'the same, two-character Chinese word (worst of 3 words)' },
  scroll_p95_frame_ms: { max: 20, what: 'scrolling end to end with thumbnails loading: p95 frame' },
  studio_rss_bytes: { max: 400 * MB, what: 'studio process RSS, peak while the page works' },
  page_heap_bytes: { max: 150 * MB, what: 'page JS heap, largest sample' },
} as const;
/**
 * Issue 26's table, for a library of a million images and more: where it names a figure, its
 * target replaces issue 13's at that size.
 */
const MILLION_TARGETS: Partial<Record<keyof typeof TARGETS | 'scroll_fill_ms', number>> = {
  open_warm_ms: 500,
  open_cold_ms: 1500,
  mark_p95_ms: 50,
  search_english_ms: 200,
  search_chinese_ms: 200,
  scroll_p95_frame_ms: 25,
  // The last screen after a fling, drawn: the screen full of thumbnails after the last flick.
  scroll_fill_ms: 2000,
  studio_rss_bytes: 500 * MB,
};
/**
 * Issue 36's table, at every size: the last key of a search to the frame where every place on
 * screen shows a match and the count says how many; the count never behind the rows it counts; no
 * task of the page of 50 ms or more while culling (the burst) or searching; the page's DOM nodes;
 * the scroll bar dragged through the whole list in 100 steps, p95 frame (scroll-drag.ts).
 */
const ISSUE_36 = {
  search_exact_ms: {
    max: 250,
    what: 'last key → every cell on screen a match and the count right (worst of 6 words)',
  },
  search_count_behind_frames: {
    max: 1,
    what: 'frames whose cells are all matches beside another number (all 6 words)',
  },
  longest_task_ms: { max: 50, what: 'longest page task while culling (the burst) or searching' },
  dom_nodes: { max: 5000, what: "the page's DOM nodes after open, burst, searches and scrolling, the most" },
  drag_p95_frame_ms: { max: 25, what: `the scroll bar dragged top to end in ${DRAG_STEPS} steps, p95 frame` },
} as const;
/** From each size to the next one measured (10k → 100k for issue 13, 100k → 1M for issue 26). */
const GROWTH_MAX = 1.5;
/**
 * Times under one frame are one frame for the growth ratios: a person cannot tell 6 ms from 12 ms,
 * and the probe sees the screen a frame at a time; a ratio of two such times would only be noise.
 */
const FRAME_MS = 1000 / 60;

// Two cores shared with whatever else runs: the load says how far to trust a run's figures.
const loadAtStart = loadavg()[0]!;
const sizes = (process.env.BENCH_LIBRARY_SIZES ?? '10000,100000').split(',').map(Number);
const figures = new Map<number, LibraryFigures>();
const plainOpens = new Map<number, number[]>();
const plainDrags = new Map<number, Drag>();
const onlyOpen = process.env.BENCH_LIBRARY_ONLY === 'open';
// BENCH_LIBRARY_ONLY=work: everything but the opens (issue 36's figures among them); cannot pass.
const onlyWork = process.env.BENCH_LIBRARY_ONLY === 'work';
if (process.env.BENCH_LIBRARY_ONLY === 'trace') {
  const library = await makeLibrary(sizes[0]! / 200);
  await traceLibraryOpen(
    library,
    process.env.BENCH_TRACE_COLD === '1',
    process.env.BENCH_TRACE_OUT,
    process.env.BENCH_TRACE_SEARCH,
    process.env.BENCH_TRACE_BURST === '1',
  );
  console.log(JSON.stringify({ bench: 'gallery', only: 'trace', images: sizes[0], pass: false }));
  process.exit(0);
}
for (const images of onlyOpen ? [] : sizes) {
  console.log(`library of ${images} images:`);
  const library = await makeLibrary(images / 200);
  figures.set(images, await measureLibrary(library, !onlyWork));
  // The reference, in the same run: a plain page of <img> elements showing the same files.
  if (!onlyWork) plainOpens.set(images, await plainGridOpens(library));
  plainDrags.set(images, await plainGridDrag(library));
}

const worst = (xs: (number | null)[]) =>
  xs.some((x) => x === null) ? Infinity : Math.max(...(xs as number[]));
const summary = (f: LibraryFigures) => {
  const english = f.search.filter((s) => /^[a-z]+$/.test(s.word));
  const chinese = f.search.filter((s) => !/^[a-z]+$/.test(s.word));
  return {
    open_warm_ms: median(f.openWarm),
    open_cold_ms: median(f.openCold),
    mark_p95_ms: p95(f.markMs.map((m) => m ?? Infinity)),
    burst_longest_task_ms: Math.max(0, ...f.burstLongTasks),
    burst_api_worst_ms: Math.max(...f.burstApiMs),
    burst_bytes: f.burstBytes,
    search_english_ms: worst(english.map((s) => (s.shown === s.expected ? s.ms : null))),
    search_chinese_ms: worst(chinese.map((s) => (s.shown === s.expected ? s.ms : null))),
    scroll_p95_frame_ms: f.scroll.p95,
    studio_rss_bytes: f.rssPeakBytes,
    page_heap_bytes: f.heapBytes,
    scroll_fill_ms: f.scroll.fillMs ?? Infinity,
  };
};

/** Where an open's or a search's time went, from the page's resource timing (ms after the input). */
const timeline = (r: Requests | null) => {
  if (!r) return 'none';
  const methods = [...new Set(r.api.map((a) => a.method))].map((method) => {
    const calls = r.api.filter((a) => a.method === method);
    if (calls.length === 1) {
      const [c] = calls as [(typeof calls)[number]];
      return `${method} ${c.start}-${c.end}${c.queued > 2 ? ` (sent ${c.queued} ms late)` : ''}`;
    }
    const longest = Math.max(...calls.map((c) => c.end - c.start));
    return `${method} ×${calls.length} from ${calls[0]!.start} to ${Math.max(...calls.map((c) => c.end))}, longest ${longest}`;
  });
  return [
    r.scripts && `scripts done ${r.scripts.end}`,
    ...methods,
    r.thumbnails && `${r.thumbnails.count} thumbnails ${r.thumbnails.firstStart}-${r.thumbnails.lastEnd}`,
  ]
    .filter(Boolean)
    .join(', ');
};

/** The longest animation frames of a phase, and the scripts that ran in them. */
const slow = (label: string, f: SlowFrames | null) => {
  if (!f?.count) return console.log(`  ${label}: no frame of 50 ms or more`);
  console.log(`  ${label}: ${f.count} frames of 50 ms or more; the longest:`);
  for (const t of f.top)
    console.log(
      `    at ${t.at} ms: ${t.ms} ms (blocking ${t.blocking}, style+layout+paint ${t.styleLayoutPaint}); ` +
        (t.scripts
          .map(
            (x) =>
              `${x.what} [${x.file}] ${x.ms} ms${x.forcedLayout ? `, forced layout ${x.forcedLayout}` : ''}`,
          )
          .join('; ') || 'no script'),
    );
};

/** What the cold and the warm open waited on, and their slow frames. */
const openDetails = (f: Pick<LibraryFigures, 'openRequests' | 'openSlowFrames'>) => {
  console.log(`  cold open waited on: ${timeline(f.openRequests.cold)}`);
  console.log(`  warm open waited on: ${timeline(f.openRequests.warm)}`);
  slow('cold open, slow frames', f.openSlowFrames.cold);
  slow('warm open, slow frames', f.openSlowFrames.warm);
};

if (onlyOpen) {
  const opens: Record<string, number> = {};
  for (const images of sizes) {
    console.log(`library of ${images} images:`);
    const f = await measureLibraryOpens(await makeLibrary(images / 200));
    const k = `${images / 1000}k`;
    openDetails(f);
    opens[`open_cold_ms_${k}`] = median(f.openCold);
    opens[`open_warm_ms_${k}`] = median(f.openWarm);
  }
  const load = loadavg()[0]!;
  console.log(
    `\nload average (1 min): ${loadAtStart.toFixed(1)} at the start, ${load.toFixed(1)} at the end`,
  );
  console.log(
    JSON.stringify({
      bench: 'gallery',
      only: 'open',
      images: sizes,
      load_average: [loadAtStart, load],
      figures: opens,
      pass: false,
    }),
  );
  process.exit(0);
}
const round = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(1)) : null);
const judged: Record<string, { value: number | null; target: string; pass: boolean }> = {};
/** Not judged: the same opens beside a plain <img> grid of the same files (plain-grid.ts). */
const references: Record<string, number | null> = {};
for (const [images, f] of figures) {
  const s = summary(f);
  const k = `${images / 1000}k`;
  console.log(`\n${images} images (catalog ready in ${(f.catalogReadyMs / 1000).toFixed(1)} s):`);
  console.log(`  top row: ${f.firstRowCells} cells, aspect ratios ${f.firstRowAspects.join(' ')}`);
  console.log(
    `  open cold ${f.openCold.map((t) => t.toFixed(0)).join(' / ')} ms, warm ${f.openWarm.map((t) => t.toFixed(0)).join(' / ')} ms`,
  );
  const plain = plainOpens.get(images) ?? [];
  console.log(
    `  reference: a plain <img> grid of the newest batch's files, navigation → top row drawn ${plain.map((t) => t.toFixed(0)).join(' / ')} ms`,
  );
  openDetails(f);
  console.log(`  marks (ms): ${f.markMs.map((m) => (m === null ? 'never' : m.toFixed(0))).join(' ')}`);
  console.log(
    `  key intervals ${Math.min(...f.markIntervalsMs).toFixed(0)}-${Math.max(...f.markIntervalsMs).toFixed(0)} ms; long tasks ${f.burstLongTasks.map((t) => t.toFixed(0)).join(' ') || 'none of 50 ms or more'}; ` +
      `API ${f.burstApiMs.length} calls, median ${median(f.burstApiMs).toFixed(1)} ms, worst ${Math.max(...f.burstApiMs).toFixed(1)} ms; ${(f.burstBytes / 1024).toFixed(1)} KB received`,
  );
  console.log(`  burst requests: ${timeline(f.burstRequests)}; ${f.burstStored} of 20 marks stored`);
  slow('burst, slow frames', f.burstSlowFrames);
  for (const x of f.search)
    console.log(
      `  search ${x.word}: ${x.ms === null ? 'never' : `${x.ms.toFixed(0)} ms`} (${x.shown} shown, ${x.expected} expected); ` +
        `${timeline(x.requests)}; the same library.query again over the API ${x.apiMs.toFixed(0)} ms; ` +
        `typed ${x.attempts}× (longest gap between keys ${x.longestKeyGap.toFixed(0)} ms)`,
    );
  slow('searches, slow frames', f.searchSlowFrames);
  console.log(
    `  scroll: ${f.scroll.frames} frames in ${f.scroll.seconds.toFixed(1)} s, p95 ${f.scroll.p95.toFixed(1)} ms (moving ${f.scroll.movingP95.toFixed(1)}, paused ${f.scroll.pausedP95.toFixed(1)}; the page idle just before ${f.scroll.idleP95.toFixed(1)}); ` +
      `${(f.scroll.slowShare * 100).toFixed(1)}% of frames over 20 ms (${(f.scroll.movingSlowShare * 100).toFixed(1)}% while moving), ` +
      `${f.scroll.longTasks.length} long tasks (longest ${Math.max(0, ...f.scroll.longTasks).toFixed(0)} ms), ${f.scroll.thumbnailsLoaded} thumbnails loaded, ` +
      `median ${(f.scroll.coverageAfterPause * 100).toFixed(0)}% of cells on screen showing theirs after a 300 ms pause${f.scroll.reachedEnd ? ', reached the end' : ', DID NOT reach the end'}, ` +
      `where the screen filled with thumbnails ${f.scroll.fillMs === null ? 'not within 30 s' : `${f.scroll.fillMs.toFixed(0)} ms`} after the last flick`,
  );
  slow('scroll, slow frames', f.scroll.slowFrames);
  const m = f.scroll.mainThread;
  console.log(
    `  scroll, the page's main thread (Chromium's counters): busy ${m.task.toFixed(1)} s of ${f.scroll.seconds.toFixed(1)} s; ` +
      `script ${m.script.toFixed(1)} s, style ${m.style.toFixed(1)} s, layout ${m.layout.toFixed(1)} s`,
  );
  console.log(
    `  studio RSS peak ${(f.rssPeakBytes / MB).toFixed(0)} MB (at the end ${(f.rssAtEndBytes / MB).toFixed(0)} MB); page heap ${(f.heapBytes / MB).toFixed(1)} MB`,
  );
  const worstExact = worst(f.search.map((x) => (x.shown === x.expected ? x.exactMs : null)));
  const longest = Math.max(0, ...f.burstLongTasks, ...f.searchLongTasks);
  const plainDrag = plainDrags.get(images);
  console.log(
    `  issue 36: search to the exact grid and count ${f.search.map((x) => `${x.word} ${x.exactMs === null ? 'never' : x.exactMs.toFixed(0)}`).join(', ')} ms; ` +
      `count behind its rows in ${f.search.reduce((n, x) => n + x.countBehindFrames, 0)} frames; ` +
      `long tasks while searching ${f.searchLongTasks.map((t) => t.toFixed(0)).join(' ') || 'none of 50 ms or more'}; ` +
      `DOM nodes ${f.domNodes.open} after open, ${f.domNodes.burst} after the burst, ${f.domNodes.search} after searching, ${f.domNodes.scroll} after scrolling`,
  );
  console.log(
    `  drag through the list in ${DRAG_STEPS} steps: p95 frame ${f.drag.p95.toFixed(1)} ms, longest ${Math.max(...f.drag.deltas).toFixed(0)} ms, ` +
      `${f.drag.longTasks.length} long tasks${f.drag.reachedEnd ? '' : ', DID NOT reach the end'}; ` +
      `the plain <img> page the same way: p95 ${plainDrag ? plainDrag.p95.toFixed(1) : '?'} ms, longest ${plainDrag ? Math.max(...plainDrag.deltas).toFixed(0) : '?'} ms`,
  );
  const issue36 = {
    search_exact_ms: worstExact,
    search_count_behind_frames: f.search.reduce((n, x) => n + x.countBehindFrames, 0),
    longest_task_ms: longest,
    dom_nodes: f.domNodes.max,
    drag_p95_frame_ms: f.drag.reachedEnd ? f.drag.p95 : Infinity,
  };
  for (const [name, value] of Object.entries(issue36)) {
    const { max } = ISSUE_36[name as keyof typeof ISSUE_36];
    judged[`${name}_${k}`] = { value: round(value), target: `< ${max}`, pass: value < max };
  }
  if (plainDrag) references[`plain_img_drag_p95_frame_ms_${k}`] = round(plainDrag.p95);
  if (onlyWork) continue;
  const names = [...Object.keys(TARGETS), ...(images >= 1_000_000 ? ['scroll_fill_ms'] : [])];
  for (const name of names as (keyof typeof s)[]) {
    const value = s[name];
    const max =
      (images >= 1_000_000 ? MILLION_TARGETS[name] : undefined) ?? TARGETS[name as keyof typeof TARGETS].max;
    const pass = name !== 'scroll_p95_frame_ms' || f.scroll.reachedEnd ? value < max : false;
    judged[`${name}_${k}`] = { value: round(value), target: `< ${max}`, pass };
  }
  // Not a speed: whether the marks timed were the studio's marks (stored), not only drawn.
  judged[`burst_marks_stored_${k}`] = { value: f.burstStored, target: '= 20', pass: f.burstStored === 20 };
  if (plain.length) {
    const reference = median(plain);
    references[`plain_img_grid_open_ms_${k}`] = round(reference);
    references[`open_warm_vs_plain_${k}`] = round(s.open_warm_ms / reference);
    references[`open_cold_vs_plain_${k}`] = round(s.open_cold_ms / reference);
  }
}

const measured = [...figures.keys()].sort((a, b) => a - b);
if (onlyWork) {
  judged.opens = { value: null, target: 'measured (BENCH_LIBRARY_ONLY=work leaves them out)', pass: false };
} else if (measured.length >= 2) {
  const floor = (x: number) => Math.max(x, FRAME_MS);
  for (let i = 1; i < measured.length; i++) {
    const small = summary(figures.get(measured[i - 1]!)!);
    const large = summary(figures.get(measured[i]!)!);
    const step = `${measured[i - 1]! / 1000}k_to_${measured[i]! / 1000}k`;
    for (const name of [
      'open_warm_ms',
      'open_cold_ms',
      'mark_p95_ms',
      'search_english_ms',
      'search_chinese_ms',
    ] as const) {
      const ratio = floor(large[name]) / floor(small[name]);
      judged[`growth_${name}_${step}`] = {
        value: round(ratio),
        target: `<= ${GROWTH_MAX}`,
        pass: ratio <= GROWTH_MAX,
      };
    }
  }
} else {
  judged.growth = {
    value: null,
    target: 'two sizes measured (10,000 and 100,000; or 100,000 and 1,000,000)',
    pass: false,
  };
}

const loadAtEnd = loadavg()[0]!;
console.log(
  `\nload average (1 min): ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end`,
);
console.log('figure | value | target | pass');
for (const [name, j] of Object.entries(judged))
  console.log(`${name} | ${j.value} | ${j.target} | ${j.pass ? 'yes' : 'NO'}`);
console.log(
  JSON.stringify({
    bench: 'gallery',
    images: sizes,
    load_average: [Number(loadAtStart.toFixed(1)), Number(loadAtEnd.toFixed(1))],
    figures: judged,
    references,
    targets: Object.fromEntries(
      [...Object.entries(TARGETS), ...Object.entries(ISSUE_36)].map(([k, t]) => [k, `${t.what} < ${t.max}`]),
    ),
    targets_at_1m: {
      ...MILLION_TARGETS,
      scroll_fill_ms: 'the screen full of thumbnails after the last flick < 2000',
    },
    pass: Object.values(judged).every((j) => j.pass),
  }),
);
