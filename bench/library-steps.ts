import type { Page } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import { installProbe, probe } from './library-probe';
import type { BenchLibrary } from './make-library';
import { openStudioSession, type StudioSession } from './studio-session';

/** Long animation frames of a phase, the longest first, with the scripts they ran (ms; `at` from the phase's start). */
export interface SlowFrames {
  count: number;
  top: {
    at: number;
    ms: number;
    blocking: number;
    styleLayoutPaint: number;
    scripts: { what: string; file: string; ms: number; forcedLayout: number }[];
  }[];
}

/** The page's requests after an input: API calls by method, scripts and thumbnails, in ms from the input. */
export interface Requests {
  /** `queued`: before the request went out (a connection free), in ms. */
  api: { method: string; start: number; end: number; queued: number }[];
  scripts: { count: number; end: number } | null;
  thumbnails: { count: number; firstStart: number; lastEnd: number } | null;
}

/** Picks, rejects and stars, as a person culls: one key a cell, the arrow between. */
const BURST_KEYS = [...'px3px5ppx4px2px1pxp5'];
const BURST_INTERVAL_MS = 120;
const labels = { picked: 'Picked', rejected: 'Rejected' };

/** The studio on the bench's data folder, its page ready and left alone a moment, as after a start. */
export async function startedStudio(dataDir: string): Promise<StudioSession> {
  const session = await openStudioSession({ dataDir });
  await session.page.getByTestId('connection-indicator').waitFor();
  await sleep(1500);
  await installProbe(session.page);
  return session;
}

/** Clicks Library in the navigation, and measures until the top row of thumbnails is decoded and on screen. */
export async function openLibrary(
  page: Page,
  images: number,
): Promise<{
  ms: number;
  /** The click to the frame whose count says "of <images>". */
  countMs: number;
  cells: number;
  aspects: (number | null)[];
  requests: Requests | null;
  slowFrames: SlowFrames;
}> {
  await probe(page, 'armOpen', 60_000);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Library' })
    .click();
  const open = (await page.evaluate('window.__bench.pending')) as {
    ms: number | null;
    cells: number;
    aspects: (number | null)[];
    requests: Requests | null;
    slowFrames: SlowFrames;
    count: { shown?: number; of?: number; text: string };
  };
  if (open.ms === null) throw new Error(`the top row of thumbnails never showed (${open.count.text})`);
  // The count may come a moment after the top row: it is timed apart, and must be the whole library.
  const counted = (await probe(page, 'countOf', images, 10_000)) as {
    ms: number | null;
    count: { text: string };
  };
  if (counted.ms === null) throw new Error(`the Library says "${counted.count.text}", not ${images} images`);
  return {
    ms: open.ms,
    countMs: counted.ms,
    cells: open.cells,
    aspects: open.aspects,
    requests: open.requests,
    slowFrames: open.slowFrames,
  };
}

/** Makes sure the catalog knows the whole library (built the first time, from the folders) before anything is timed. */
export async function prepare(library: BenchLibrary, dataDir: string): Promise<number> {
  const session = await openStudioSession({ dataDir });
  try {
    await session.call('settings.update', { libraryDir: library.root });
    const t0 = performance.now();
    for (;;) {
      // A first build at a million holds the studio's event loop for seconds at a time, and a
      // poll sent on a kept-alive connection the studio closes meanwhile is reset: asked again.
      const overview = await session.call('library.overview').catch(async () => {
        await sleep(1000);
        return session.call('library.overview');
      });
      if (overview.images === library.images && !overview.indexing) break;
      if (performance.now() - t0 > 30 * 60_000)
        throw new Error(`the catalog holds ${overview.images} images`);
      await sleep(1000);
    }
    const ready = performance.now() - t0;
    // The burst marks the newest images: they start unmarked, whatever an earlier run left.
    const first = await session.call('library.query', { offset: 0, limit: BURST_KEYS.length });
    await session.call('library.mark', {
      ids: first.items.map((i) => i.id),
      mark: null,
      stars: 0,
    });
    return ready;
  } finally {
    await session.stop();
  }
}

/** Twenty marks by keyboard at 120 ms, a cell each, with a cheap API call running beside them. */
export async function markBurst(session: StudioSession, bytes: () => number) {
  const { page } = session;
  await page.getByTestId('library-cell').first().click();
  await sleep(1000);
  await probe(page, 'watchMarks', labels);
  await probe(page, 'startLongTasks');
  const bytesBefore = bytes();
  let bursting = true;
  const api: number[] = [];
  const apiLoop = (async () => {
    while (bursting) {
      const t = performance.now();
      await session.call('settings.get');
      api.push(performance.now() - t);
      await sleep(20);
    }
  })();
  const t0 = performance.now();
  const pressedAt: number[] = [];
  for (let i = 0; i < BURST_KEYS.length; i++) {
    await sleep(Math.max(0, t0 + i * BURST_INTERVAL_MS - performance.now()));
    pressedAt.push(performance.now());
    await page.keyboard.press(BURST_KEYS[i]!);
    if (i < BURST_KEYS.length - 1) {
      await sleep(Math.max(0, t0 + i * BURST_INTERVAL_MS + BURST_INTERVAL_MS / 2 - performance.now()));
      await page.keyboard.press('ArrowRight');
    }
  }
  const marks = (await probe(page, 'marksDone', 5000)) as {
    key: string;
    id: string | null;
    ms: number | null;
  }[];
  // The writes and their echoes land after the last key: they belong to the burst.
  await sleep(1000);
  bursting = false;
  await apiLoop;
  const { longTasks, slowFrames, requests } = (await probe(page, 'stopLongTasks')) as {
    longTasks: number[];
    slowFrames: SlowFrames;
    requests: Requests;
  };
  if (marks.length !== BURST_KEYS.length || marks.some((m) => !m.id))
    throw new Error(`the gallery saw ${marks.length} mark keys on cells ${JSON.stringify(marks)}`);
  // What the studio kept: every key's mark on its image, as a new window of the list reads it.
  const kept = await session.call('library.query', { offset: 0, limit: 2 * BURST_KEYS.length });
  const byId = new Map(kept.items.map((i) => [i.id, i]));
  const stored = marks.filter((m) => {
    const item = byId.get(m.id!);
    if (m.key === 'p') return item?.mark === 'picked';
    if (m.key === 'x') return item?.mark === 'rejected';
    return item?.stars === Number(m.key);
  }).length;
  return {
    stored,
    markMs: marks.map((m) => m.ms),
    intervals: pressedAt.slice(1).map((t, i) => t - pressedAt[i]!),
    longTasks,
    slowFrames,
    requests,
    api,
    bytes: bytes() - bytesBefore,
  };
}

/** A fast typist's keys, and the longest pause between two keys of one word. */
const TYPING_DELAY_MS = 60;
const TYPING_STALL_MS = 120;

/**
 * Types a word into the search box as a person does: English key by key, Chinese as an input
 * method commits it. Typed again (up to three times) when the machine stalled the typing: a
 * pause mid-word lets a search for a prefix ("walnu") finish before the last key, which already
 * shows the right images and would time nothing.
 */
export async function search(session: StudioSession, library: BenchLibrary, word: string) {
  const { page } = session;
  const expected = library.searches[word]!;
  let found:
    | {
        ms: number | null;
        count: { shown?: number };
        requests?: Requests;
        gaps: number[];
        /** To every place on screen a match and the count right (issue 36). */
        exactMs: number | null;
        /** Frames whose cells were all matches beside a count of another number. */
        countBehindFrames: number;
      }
    | undefined;
  let attempts = 0;
  while (attempts < 3) {
    attempts++;
    const box = page.getByTestId('library-search');
    await box.click();
    await box.fill('');
    const all = (await probe(page, 'countIs', library.images, 10_000)) as { shown?: number; text: string };
    if (all.shown !== library.images) throw new Error(`the cleared search shows "${all.text}"`);
    await sleep(500);
    await probe(page, 'watchSearch', word, expected, 10_000, library.images);
    // Typed again, a word must be a query the page has not cached: the same word, capitalized
    // (the search ignores case, and so does the check of what it shows).
    const typed =
      attempts === 1 ? word : attempts === 2 ? word[0]!.toUpperCase() + word.slice(1) : word.toUpperCase();
    if (/^[a-z]+$/i.test(typed)) await page.keyboard.type(typed, { delay: TYPING_DELAY_MS });
    else await page.keyboard.insertText(typed);
    found = await probe(page, 'searchDone');
    if (Math.max(0, ...found!.gaps) <= TYPING_STALL_MS) break;
  }
  const t = performance.now();
  await session.call('library.query', {
    search: word,
    review: 'any',
    minStars: 0,
    sort: 'newest',
    offset: 0,
    limit: 200,
  });
  const apiMs = performance.now() - t;
  return {
    word,
    expected,
    ms: found!.ms,
    exactMs: found!.exactMs,
    countBehindFrames: found!.countBehindFrames,
    shown: found!.count.shown,
    requests: found!.requests ?? null,
    apiMs,
    attempts,
    longestKeyGap: Math.max(0, ...found!.gaps),
  };
}
