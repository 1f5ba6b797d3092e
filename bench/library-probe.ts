import type { Page } from '@playwright/test';

/**
 * What the Library benchmarks measure inside the page, from what a person sees: the times of their
 * input events (`event.timeStamp`) and of the end of the first frame that shows the answer. A frame
 * "ends" when a user-blocking task posted from its requestAnimationFrame callback runs, i.e. after
 * that frame's style, layout and paint, and before work the page queued for later. Cells are found
 * by their test ids and geometry, badges by their visible text (`innerText`, which skips what CSS
 * hides), images by `complete`, `naturalWidth` and `decode()`.
 * Plain JavaScript in a string: it runs in the page as written, with no compiler helpers.
 */
const PROBE = String.raw`
(() => {
  if (window.__bench) return;
  performance.setResourceTimingBufferSize(1000000);
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  // The frame's end: a task of the highest priority posted during the frame, which runs as soon as
  // the frame's rendering is done. A message posted to a channel (as before) queued behind work the
  // page had queued before the frame: in a trace of a search at a million images, React's effects
  // for the list already on screen (23 ms) ran first, and the frame seen at 191 ms was timed at 239.
  // Chromium's scheduler only: a browser without it fails here rather than timing frames otherwise.
  const task = () => scheduler.postTask(() => undefined, { priority: 'user-blocking' });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const gallery = () => document.querySelector('[data-testid="library-gallery"]');
  const onScreen = (el) => {
    const r = el.getBoundingClientRect();
    const g = gallery()?.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth &&
      (!g || (r.bottom > g.top && r.top < g.bottom));
  };
  const shown = (img) => !!img && img.complete && img.naturalWidth > 0 && onScreen(img);
  /** Every place of the gallery's top row on screen: cells and placeholders sharing the topmost top. */
  const topRow = () => {
    const g = gallery();
    if (!g) return [];
    const places = [...g.querySelectorAll('[data-testid="library-cell"], [data-testid="library-cell-pending"]')]
      .map((el) => ({ el, top: el.getBoundingClientRect().top }))
      .filter((p) => p.top + 1 >= g.getBoundingClientRect().top);
    if (!places.length) return [];
    const top = Math.min(...places.map((p) => p.top));
    return places.filter((p) => Math.abs(p.top - top) < 2).map((p) => p.el);
  };
  const count = () => {
    const text = document.querySelector('[data-testid="library-count"]')?.textContent ?? '';
    const n = (text.match(/\d[\d,]*/g) ?? []).map((s) => Number(s.replace(/,/g, '')));
    return { shown: n[0], of: n[1], text };
  };
  /** Resolves with the end of the first frame (after 'from') in which 'ready()' holds, then runs 'settle'. */
  const frameWhen = (ready, timeoutMs, settle) => new Promise((resolve) => {
    const t0 = performance.now();
    const loop = async () => {
      if (ready()) {
        if (settle) await settle();
        await frame();
        await task();
        resolve({ end: performance.now() });
        return;
      }
      if (performance.now() - t0 > timeoutMs) return resolve({ end: null });
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
  /** The page's own requests after 'from' (resource timing): what the time went to, for the report. */
  const requests = (from, until) => {
    const all = performance.getEntriesByType('resource').filter((e) => e.startTime >= from && (until === null || e.startTime <= until));
    const api = all.filter((e) => e.name.includes('/api/')).map((e) => ({
      method: e.name.slice(e.name.indexOf('/api/') + 5),
      start: Math.round(e.startTime - from),
      end: Math.round(e.responseEnd - from),
      // Waiting for one of the browser's six connections to the host (or for the main thread).
      queued: Math.round(Math.max(0, e.requestStart - e.startTime)),
    }));
    const thumbs = all.filter((e) => e.name.includes('/thumb/'));
    const scripts = all.filter((e) => e.initiatorType === 'script' || e.name.endsWith('.js'));
    return {
      api,
      scripts: scripts.length ? { count: scripts.length, end: Math.round(Math.max(...scripts.map((e) => e.responseEnd)) - from) } : null,
      thumbnails: thumbs.length
        ? {
            count: thumbs.length,
            firstStart: Math.round(Math.min(...thumbs.map((e) => e.startTime)) - from),
            lastEnd: Math.round(Math.max(...thumbs.map((e) => e.responseEnd)) - from),
          }
        : null,
    };
  };
  /**
   * Long animation frames (50 ms and more) seen from 'start()' on, the longest first, with the
   * scripts they ran: which part of the page is slow, for the report.
   */
  const slowFrames = () => {
    const entries = [];
    const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
    observer.observe({ type: 'long-animation-frame' });
    return (from) => {
      entries.push(...observer.takeRecords());
      observer.disconnect();
      const top = [...entries].sort((a, b) => b.duration - a.duration).slice(0, 4);
      return {
        count: entries.length,
        top: top.map((e) => ({
          at: Math.round(e.startTime - from),
          ms: Math.round(e.duration),
          blocking: Math.round(e.blockingDuration),
          styleLayoutPaint: Math.round(e.startTime + e.duration - (e.styleAndLayoutStart || e.renderStart || e.startTime + e.duration)),
          scripts: e.scripts.slice(0, 3).map((x) => ({
            what: (x.invoker || x.invokerType) + (x.sourceFunctionName ? ' ' + x.sourceFunctionName : ''),
            file: (x.sourceURL || '').split('/').pop(),
            ms: Math.round(x.duration),
            forcedLayout: Math.round(x.forcedStyleAndLayoutDuration || 0),
          })),
        })),
      };
    };
  };
  const B = (window.__bench = {});

  /** The next click, to the first frame showing every cell of the top row with its thumbnail decoded. */
  B.armOpen = (timeoutMs) => {
    let start = null;
    const onClick = (e) => { start = B.openClick = e.timeStamp; window.removeEventListener('click', onClick, true); };
    window.addEventListener('click', onClick, true);
    const frames = slowFrames();
    let row = [];
    const ready = () => {
      if (start === null) return false;
      row = topRow();
      return row.length > 0 && row.every((el) => el.dataset.testid === 'library-cell' && shown(el.querySelector('img')));
    };
    const decoded = () => Promise.all(row.map((el) => el.querySelector('img').decode().catch(() => undefined)));
    B.pending = frameWhen(ready, timeoutMs, decoded).then(({ end }) => ({
      ms: end === null ? null : end - start,
      requests: start === null ? null : requests(start, end),
      slowFrames: frames(start ?? 0),
      cells: row.length,
      count: count(),
      aspects: row.map((el) => { const i = el.querySelector('img'); return i ? +(i.naturalWidth / i.naturalHeight).toFixed(2) : null; }),
    }));
  };

  /** Every mark key pressed in the gallery, to the first frame whose cell shows its badge. */
  B.watchMarks = (labels) => {
    const marks = [];
    const onKey = (e) => {
      const key = e.key.toLowerCase();
      if (!/^[px1-5]$/.test(key)) return;
      const active = gallery()?.getAttribute('aria-activedescendant');
      const cell = active && document.getElementById(active);
      marks.push({ key, id: cell?.dataset.id ?? null, start: e.timeStamp, end: null });
    };
    window.addEventListener('keydown', onKey, true);
    const badge = (m) => {
      const cell = m.id && document.querySelector('[data-testid="library-cell"][data-id="' + CSS.escape(m.id) + '"]');
      if (!cell) return false;
      const text = cell.innerText;
      if (m.key === 'p') return text.includes(labels.picked);
      if (m.key === 'x') return text.includes(labels.rejected);
      const n = Number(m.key);
      return text.includes('★'.repeat(n)) && !text.includes('★'.repeat(n + 1));
    };
    let watching = true;
    const loop = () => {
      const now = marks.filter((m) => m.end === null && !m.seen && badge(m));
      for (const m of now) m.seen = true;
      if (now.length) task().then(() => { const t = performance.now(); for (const m of now) m.end = t; });
      if (watching) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
    B.marksDone = async (timeoutMs) => {
      const t0 = performance.now();
      while (marks.some((m) => m.end === null) && performance.now() - t0 < timeoutMs) await sleep(20);
      watching = false;
      window.removeEventListener('keydown', onKey, true);
      return marks.map((m) => ({ key: m.key, id: m.id, ms: m.end === null ? null : m.end - m.start }));
    };
  };

  B.startLongTasks = () => {
    B.burstStart = performance.now();
    B.burstFrames = slowFrames();
    B.longTasks = [];
    B.longObserver = new PerformanceObserver((list) => B.longTasks.push(...list.getEntries().map((e) => e.duration)));
    B.longObserver.observe({ type: 'longtask' });
  };
  B.stopLongTasks = () => {
    B.longTasks.push(...B.longObserver.takeRecords().map((e) => e.duration));
    B.longObserver.disconnect();
    return { longTasks: B.longTasks, slowFrames: B.burstFrames(B.burstStart), requests: requests(B.burstStart, null) };
  };

  /**
   * The search box's last input event (a keystroke, or an input method's commit), to the first
   * frame showing the expected count and a top row of cells whose prompts contain the word.
   */
  B.watchSearch = (word, expected, timeoutMs, libraryImages) => {
    B.libraryImages = libraryImages;
    let last = null;
    let result = null;
    const gaps = [];
    const onInput = (e) => {
      if (e.target?.dataset?.testid !== 'library-search') return;
      if (last !== null) gaps.push(e.timeStamp - last);
      last = e.timeStamp;
      result = null;
    };
    window.addEventListener('input', onInput, true);
    // A cell whose prompt (its caption) holds the word. Read as textContent, not innerText: innerText
    // lays the page out again for every cell, and this runs at every frame of the search, so the probe
    // itself took 3 to 10 ms of each frame it watched (a trace of one search at a million images).
    const isMatch = (el) =>
      el.dataset.testid === 'library-cell' &&
      (el.querySelector('.lib-caption')?.textContent ?? '').toLowerCase().includes(word);
    const correct = () => {
      const c = count();
      if (c.shown !== expected) return false;
      const row = topRow();
      return row.length > 0 && row.every(isMatch);
    };
    // Issue 36: every place on screen a cell of a match (none waiting, none of the old list), the
    // count right; and any frame whose cells are all matches beside a count saying another number.
    let exact = null;
    let behind = 0;
    const countNow = () => {
      const c = count();
      return /counting|计数/i.test(c.text) ? 'counting' : c.shown;
    };
    const screenMatches = () => {
      const g = gallery();
      const places = g ? [...g.querySelectorAll('[data-testid="library-cell"], [data-testid="library-cell-pending"]')].filter(onScreen) : [];
      return places.length > 0 && places.every(isMatch);
    };
    // The screen is read again only in a frame after the page changed (its elements, a scroll, a
    // resize); otherwise the last frame's reading stands. Reading 40-odd cells' places at every
    // frame took 4 to 9 ms of each frame while the answer was being drawn, time the page's own
    // work waited behind and a person's page never spends.
    let changed = true;
    const observer = new MutationObserver(() => (changed = true));
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    const moved = () => (changed = true);
    window.addEventListener('scroll', moved, true);
    window.addEventListener('resize', moved);
    let seen = { correct: false, matches: false, count: undefined, of: undefined };
    const read = () => {
      if (!changed) return seen;
      changed = false;
      observer.takeRecords();
      seen = { correct: correct(), matches: screenMatches(), count: countNow(), of: count().of };
      return seen;
    };
    const loop = () => {
      const now = last === null ? seen : read();
      if (last !== null && result === null && now.correct) {
        const from = last;
        result = { pending: true };
        task().then(() => {
          const end = performance.now();
          if (last === from) result = { ms: end - from, count: count(), requests: requests(from, end), gaps };
        });
      }
      if (last !== null && (exact === null || exact.from !== last)) {
        const { matches, count: c, of } = now;
        if (matches && c !== expected && c !== 'counting' && c !== undefined) behind++;
        if (matches && c === expected && of === B.libraryImages) {
          const from = last;
          exact = { from, pending: true };
          task().then(() => { if (last === from) exact = { from, ms: performance.now() - from }; });
        }
      }
      if (!B.searchStop) requestAnimationFrame(loop);
    };
    B.searchStop = false;
    requestAnimationFrame(loop);
    B.searchDone = async () => {
      const t0 = performance.now();
      const done = () => result && !result.pending && exact && !exact.pending && exact.from === last;
      while (!done() && performance.now() - t0 < timeoutMs) await sleep(10);
      B.searchStop = true;
      window.removeEventListener('input', onInput, true);
      observer.disconnect();
      window.removeEventListener('scroll', moved, true);
      window.removeEventListener('resize', moved);
      const exactMs = exact && !exact.pending && exact.from === last ? exact.ms : null;
      return { ...(result && !result.pending ? result : { ms: null, count: count(), gaps }), exactMs, countBehindFrames: behind };
    };
  };

  /** Waits until the count says 'shown of total' (the whole library again after a search is cleared). */
  /**
   * Until the count says "of 'of'" (the library's size, from the overview, which is asked for once
   * the list's first window is in): its end of frame in ms after the last open's click, or null.
   */
  B.countOf = (of, timeoutMs) =>
    frameWhen(() => count().of === of, timeoutMs).then(({ end }) => ({ ms: end === null ? null : end - B.openClick, count: count() }));

  B.countIs = async (shownCount, timeoutMs) => {
    const t0 = performance.now();
    while (count().shown !== shownCount && performance.now() - t0 < timeoutMs) await sleep(20);
    return count();
  };

  /** Frame durations while nothing is asked of the page: the machine's own floor, to read the scroll figures against. */
  B.idleFrames = async (ms) => {
    const deltas = [];
    let previous = null;
    const t0 = performance.now();
    while (performance.now() - t0 < ms) {
      const t = await frame();
      if (previous !== null) deltas.push(t - previous);
      previous = t;
    }
    return deltas;
  };

  /** Share of the cells on screen whose thumbnail is decoded and visible. */
  const coverage = () => {
    const cells = [...gallery().querySelectorAll('[data-testid="library-cell"], [data-testid="library-cell-pending"]')].filter(onScreen);
    return cells.length ? cells.filter((el) => shown(el.querySelector('img'))).length / cells.length : 0;
  };

  /**
   * Scrolling through the whole library as a person looking for something does: jumps spread
   * from top to bottom (dragging the scroll bar), and at each, flicks of one screen over a few
   * frames with a pause to look, long enough for thumbnails to load. Every frame's duration is
   * recorded from requestAnimationFrame, pauses and jumps included.
   */
  B.scrollTour = async ({ stops, flicks, framesPerFlick, pauseMs }) => {
    const el = gallery();
    const frames = [];
    let previous = null;
    let moving = false;
    let on = true;
    const record = (t) => {
      if (previous !== null) frames.push({ ms: t - previous, moving });
      previous = t;
      if (on) requestAnimationFrame(record);
    };
    requestAnimationFrame(record);
    const tourFrames = slowFrames();
    const long = [];
    const observer = new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration)));
    observer.observe({ type: 'longtask' });
    const t0 = performance.now();
    const seen = [];
    for (let s = 0; s < stops; s++) {
      const screen = el.clientHeight;
      const bottom = el.scrollHeight - screen;
      const from = Math.max(0, Math.round(((bottom - flicks * screen) * s) / Math.max(1, stops - 1)));
      moving = true;
      el.scrollTop = from;
      await frame();
      for (let f = 0; f < flicks; f++) {
        moving = true;
        for (let i = 1; i <= framesPerFlick; i++) {
          el.scrollTop = Math.min(bottom, Math.round(from + (f + i / framesPerFlick) * screen));
          await frame();
        }
        moving = false;
        await sleep(pauseMs);
        seen.push(coverage());
      }
    }
    on = false;
    observer.disconnect();
    // Where the tour stopped (the end of the list, never shown before): how long until every cell shows its image.
    const stopped = performance.now();
    while (coverage() < 1 && performance.now() - stopped < 30000) await sleep(50);
    const fillMs = coverage() < 1 ? null : performance.now() - stopped;
    const thumbs = performance.getEntriesByType('resource').filter((e) => e.startTime >= t0 && e.name.includes('/images/library/') && e.name.includes('/thumb/'));
    return {
      deltas: frames.map((f) => f.ms),
      movingDeltas: frames.filter((f) => f.moving).map((f) => f.ms),
      pausedDeltas: frames.filter((f) => !f.moving).map((f) => f.ms),
      longTasks: long,
      slowFrames: tourFrames(t0),
      seconds: (performance.now() - t0) / 1000,
      reachedEnd: el.scrollTop + el.clientHeight >= el.scrollHeight - 2,
      thumbnailsLoaded: thumbs.length,
      coverageAfterPause: seen,
      fillMs,
    };
  };
})();
`;

export async function installProbe(page: Page): Promise<void> {
  await page.evaluate(PROBE);
}

/** Runs one of the probe's functions in the page with JSON arguments. */
export function probe<T>(page: Page, fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    `window.__bench.${fn}(${args.map((a) => JSON.stringify(a)).join(', ')})`,
  ) as Promise<T>;
}
