import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { byteCounter, domNodes, heapUsed, mainThreadTime, rss } from './library-measures';
import { probe } from './library-probe';
import {
  markBurst,
  openLibrary,
  prepare,
  search,
  startedStudio,
  type Requests,
  type SlowFrames,
} from './library-steps';
import type { BenchLibrary } from './make-library';
import { dragGallery, type Drag } from './scroll-drag';
import { SEARCH_WORDS } from './make-library';
import { median, p95 } from './studio-session';

export type { Requests, SlowFrames };

/** What one library size measured; every time in milliseconds, every size in bytes. */
export interface LibraryFigures {
  images: number;
  catalogReadyMs: number;
  openCold: number[];
  openWarm: number[];
  /** The same opens, to the count saying the library's size (it may follow the top row). */
  openCount: { cold: number[]; warm: number[] };
  firstRowCells: number;
  firstRowAspects: (number | null)[];
  /** What the last cold and the last warm open waited on, from the click (ms). */
  openRequests: { cold: Requests | null; warm: Requests | null };
  openSlowFrames: { cold: SlowFrames | null; warm: SlowFrames | null };
  burstSlowFrames: SlowFrames;
  burstRequests: Requests;
  /** Of the burst's marks, how many the studio has stored when it is over. */
  burstStored: number;
  markMs: (number | null)[];
  markIntervalsMs: number[];
  burstLongTasks: number[];
  burstApiMs: number[];
  burstBytes: number;
  search: {
    word: string;
    expected: number;
    ms: number | null;
    /** To the frame where every place on screen is a match and the count is right (issue 36). */
    exactMs: number | null;
    countBehindFrames: number;
    shown: number | undefined;
    requests: Requests | null;
    /** The same query again through the loopback API, from this process: the main side's share. */
    apiMs: number;
    attempts: number;
    longestKeyGap: number;
  }[];
  scroll: {
    frames: number;
    p95: number;
    /** The same page doing nothing, just before: what the machine gives any page. */
    idleP95: number;
    /** Share of frames over 20 ms, of all and of those while moving. */
    slowShare: number;
    movingSlowShare: number;
    /** The page's main thread during the tour, in seconds: all tasks, and script, style and layout within them. */
    mainThread: { task: number; script: number; style: number; layout: number };
    movingP95: number;
    pausedP95: number;
    longTasks: number[];
    slowFrames: SlowFrames;
    seconds: number;
    reachedEnd: boolean;
    thumbnailsLoaded: number;
    coverageAfterPause: number;
    /** After the last flick, until every cell on screen shows its thumbnail (null: not within 30 s). */
    fillMs: number | null;
  };
  /** The searches' long tasks (50 ms and up), from the first clearing of the box to the last answer. */
  searchLongTasks: number[];
  /** The long animation frames of the same searches, with the scripts they ran: where a long task came from. */
  searchSlowFrames: SlowFrames;
  /** The page's DOM nodes after the open, the burst, the searches and the scrolling; the largest. */
  domNodes: { open: number; burst: number; search: number; scroll: number; max: number };
  /** The scroll bar dragged through the whole list in 100 steps (scroll-drag.ts). */
  drag: Drag;
  heapBytes: number;
  rssPeakBytes: number;
  rssAtEndBytes: number;
}

const OPEN_RUNS = 3;
function log(line: string) {
  console.log(`  ${line}`);
}

/**
 * The studio's data folder for a run: a new one, or with BENCH_LIBRARY_KEEP_DATA=1 one kept beside
 * the library between runs (`<root>.gallery-data`), so a million images are catalogued once, not
 * every run (the catalog is the studio's own rebuildable cache; the thumbnails are emptied for the
 * cold opens all the same).
 */
export function dataDirFor(library: BenchLibrary): { dir: string; done(): void } {
  if (process.env.BENCH_LIBRARY_KEEP_DATA === '1') return { dir: `${library.root}.gallery-data`, done() {} };
  const dir = mkdtempSync(join(tmpdir(), 'bench-library-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The cold opens, then the warm ones, each in a new studio process and a new browser profile. */
async function measureOpens(library: BenchLibrary, dataDir: string) {
  const openCold: number[] = [];
  const openWarm: number[] = [];
  const openCount: LibraryFigures['openCount'] = { cold: [], warm: [] };
  let firstRow = { cells: 0, aspects: [] as (number | null)[] };
  const openRequests: LibraryFigures['openRequests'] = { cold: null, warm: null };
  const openSlowFrames: LibraryFigures['openSlowFrames'] = { cold: null, warm: null };
  for (const cold of [true, false]) {
    for (let run = 0; run < OPEN_RUNS; run++) {
      // Cold: the studio's thumbnail cache emptied.
      if (cold) rmSync(join(dataDir, 'thumbnails'), { recursive: true, force: true });
      const session = await startedStudio(dataDir);
      try {
        const open = await openLibrary(session.page, library.images);
        (cold ? openCold : openWarm).push(open.ms);
        openCount[cold ? 'cold' : 'warm'].push(open.countMs);
        firstRow = open;
        openRequests[cold ? 'cold' : 'warm'] = open.requests;
        openSlowFrames[cold ? 'cold' : 'warm'] = open.slowFrames;
      } finally {
        await session.stop();
      }
    }
  }
  const ms = (xs: number[]) => xs.map((t) => t.toFixed(0)).join(', ');
  log(`open: cold ${ms(openCold)} ms; warm ${ms(openWarm)} ms`);
  log(`the count said the library's size: cold ${ms(openCount.cold)} ms; warm ${ms(openCount.warm)} ms`);
  return { openCold, openWarm, openCount, firstRow, openRequests, openSlowFrames };
}

/**
 * Only the opens (BENCH_LIBRARY_ONLY=open, for working on them: the whole run takes many minutes
 * at 1M). The other figures are left out, not faked: the run cannot pass.
 */
export async function measureLibraryOpens(library: BenchLibrary) {
  const data = dataDirFor(library);
  const dataDir = data.dir;
  try {
    const catalogReadyMs = await prepare(library, dataDir);
    log(`catalog ready in ${(catalogReadyMs / 1000).toFixed(1)} s`);
    return { catalogReadyMs, ...(await measureOpens(library, dataDir)) };
  } finally {
    data.done();
  }
}

/** Every Library figure for one library, each from the page as a person sees it. */
export async function measureLibrary(library: BenchLibrary, withOpens = true): Promise<LibraryFigures> {
  const data = dataDirFor(library);
  const dataDir = data.dir;
  try {
    const catalogReadyMs = await prepare(library, dataDir);
    log(`catalog ready in ${(catalogReadyMs / 1000).toFixed(1)} s`);
    // BENCH_LIBRARY_ONLY=work: the opens are left out (and the run cannot pass).
    const opens = withOpens
      ? await measureOpens(library, dataDir)
      : {
          openCold: [],
          openWarm: [],
          openCount: { cold: [], warm: [] },
          firstRow: { cells: 0, aspects: [] },
          openRequests: { cold: null, warm: null },
          openSlowFrames: { cold: null, warm: null },
        };
    const { openCold, openWarm, openCount, firstRow, openRequests, openSlowFrames } = opens;

    const session = await startedStudio(dataDir);
    const { page } = session;
    const cdp = await page.context().newCDPSession(page);
    let rssPeak = 0;
    const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, rss(session.pid).now)), 200);
    try {
      const bytes = await byteCounter(cdp);
      await openLibrary(page, library.images);
      // Once the batch filter would have been drawn (after the first screen, when the page is idle).
      await sleep(4000);
      const nodesOpen = await domNodes(cdp);
      const heaps = [await heapUsed(cdp)];
      const burst = await markBurst(session, bytes);
      heaps.push(await heapUsed(cdp));
      const nodesBurst = await domNodes(cdp);
      log(`marks: p95 ${p95(burst.markMs.map((m) => m ?? Infinity)).toFixed(1)} ms, ${burst.bytes} bytes`);
      const searches = [];
      await probe(page, 'startLongTasks');
      for (const word of [...SEARCH_WORDS.english, ...SEARCH_WORDS.chinese])
        searches.push(await search(session, library, word));
      const searchLong = (await probe(page, 'stopLongTasks')) as {
        longTasks: number[];
        slowFrames: SlowFrames;
      };
      heaps.push(await heapUsed(cdp));
      const nodesSearch = await domNodes(cdp);
      log(`search: ${searches.map((s) => `${s.word} ${s.ms?.toFixed(0)} ms`).join(', ')}`);
      await page.getByTestId('library-search').fill('');
      await probe(page, 'countIs', library.images, 10_000);
      await sleep(1000);
      const idle = (await probe(page, 'idleFrames', 3000)) as number[];
      const before = await mainThreadTime(cdp);
      const tour = (await probe(page, 'scrollTour', {
        stops: 40,
        flicks: 3,
        framesPerFlick: 8,
        pauseMs: 300,
      })) as {
        deltas: number[];
        movingDeltas: number[];
        pausedDeltas: number[];
        longTasks: number[];
        slowFrames: SlowFrames;
        seconds: number;
        reachedEnd: boolean;
        thumbnailsLoaded: number;
        coverageAfterPause: number[];
        fillMs: number | null;
      };
      const after = await mainThreadTime(cdp);
      const drag = await dragGallery(page);
      log(
        `drag: p95 ${drag.p95.toFixed(1)} ms, long tasks ${drag.longTasks.map((t) => t.toFixed(0)).join(' ') || 'none'}`,
      );
      const nodesScroll = await domNodes(cdp);
      heaps.push(await heapUsed(cdp));
      const end = rss(session.pid);
      return {
        images: library.images,
        catalogReadyMs,
        openCold,
        openWarm,
        openCount,
        firstRowCells: firstRow.cells,
        firstRowAspects: firstRow.aspects,
        openRequests,
        openSlowFrames,
        burstSlowFrames: burst.slowFrames,
        burstRequests: burst.requests,
        burstStored: burst.stored,
        markMs: burst.markMs,
        markIntervalsMs: burst.intervals,
        burstLongTasks: burst.longTasks,
        burstApiMs: burst.api,
        burstBytes: burst.bytes,
        search: searches,
        searchLongTasks: searchLong.longTasks,
        searchSlowFrames: searchLong.slowFrames,
        domNodes: {
          open: nodesOpen,
          burst: nodesBurst,
          search: nodesSearch,
          scroll: nodesScroll,
          max: Math.max(nodesOpen, nodesBurst, nodesSearch, nodesScroll),
        },
        drag,
        scroll: {
          frames: tour.deltas.length,
          p95: p95(tour.deltas),
          idleP95: p95(idle),
          slowShare: tour.deltas.filter((d) => d > 20).length / tour.deltas.length,
          movingSlowShare: tour.movingDeltas.filter((d) => d > 20).length / tour.movingDeltas.length,
          mainThread: {
            task: after.task - before.task,
            script: after.script - before.script,
            style: after.style - before.style,
            layout: after.layout - before.layout,
          },
          movingP95: p95(tour.movingDeltas),
          pausedP95: p95(tour.pausedDeltas),
          longTasks: tour.longTasks,
          slowFrames: tour.slowFrames,
          seconds: tour.seconds,
          reachedEnd: tour.reachedEnd,
          thumbnailsLoaded: tour.thumbnailsLoaded,
          coverageAfterPause: median(tour.coverageAfterPause),
          fillMs: tour.fillMs,
        },
        heapBytes: Math.max(...heaps),
        rssPeakBytes: Math.max(rssPeak, end.peak),
        rssAtEndBytes: end.now,
      };
    } finally {
      clearInterval(rssTimer);
      await session.stop();
    }
  } finally {
    data.done();
  }
}
