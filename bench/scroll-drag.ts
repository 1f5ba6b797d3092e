// Issue 36's scroll: the scroll bar dragged from the top of the list to its end in 100 steps, one
// step a frame, as a hand dragging it moves the list; every frame's duration from
// requestAnimationFrame, and the page's long tasks. The same drag through a plain page of <img>
// elements (the newest batch's files, no studio, no React) in the same browser and window size is
// the reference printed beside it: what this machine gives any page jumping through images.
import { chromium, type Page } from '@playwright/test';
import { createReadStream, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '../e2e/playwright.config';
import type { BenchLibrary } from './make-library';
import { p95 } from './studio-session';

export const DRAG_STEPS = 100;

export interface Drag {
  /** Every frame's duration during the drag (ms). */
  deltas: number[];
  p95: number;
  longTasks: number[];
  reachedEnd: boolean;
}

/** Plain JavaScript run in the page: drags `selector`'s scroll position (the page's if none). */
const DRAG = String.raw`async (selector, steps) => {
  const el = selector ? document.querySelector(selector) : document.scrollingElement;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  el.scrollTop = 0;
  await frame();
  await frame();
  const deltas = [];
  const long = [];
  const observer = new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration)));
  observer.observe({ type: 'longtask' });
  let previous = await frame();
  for (let i = 1; i <= steps; i++) {
    el.scrollTop = Math.round(((el.scrollHeight - el.clientHeight) * i) / steps);
    const t = await frame();
    deltas.push(t - previous);
    previous = t;
  }
  // The last step's answer (its rows, then their windows) lands in the frames after it.
  for (let i = 0; i < 5; i++) {
    const t = await frame();
    deltas.push(t - previous);
    previous = t;
  }
  long.push(...observer.takeRecords().map((e) => e.duration));
  observer.disconnect();
  return { deltas, longTasks: long, reachedEnd: el.scrollTop + el.clientHeight >= el.scrollHeight - 2 };
}`;

async function drag(page: Page, selector: string | null): Promise<Drag> {
  const d = (await page.evaluate(`(${DRAG})(${JSON.stringify(selector)}, ${DRAG_STEPS})`)) as Omit<
    Drag,
    'p95'
  >;
  return { ...d, p95: p95(d.deltas) };
}

/** The Library's gallery dragged from its top to its end. */
export function dragGallery(page: Page): Promise<Drag> {
  return drag(page, '[data-testid="library-gallery"]');
}

/** Ten columns as the gallery has them at this window size, and rows enough to scroll a while. */
const COLUMNS = 10;
const PLAIN_IMAGES = 2000;

/** The reference: a plain page of 2,000 lazily loaded <img> of the newest batch's files, dragged the same way. */
export async function plainGridDrag(library: BenchLibrary): Promise<Drag> {
  const dir = join(library.root, library.newestFolder, 'images');
  const files = readdirSync(dir).sort();
  const images = Array.from(
    { length: PLAIN_IMAGES },
    (_, i) =>
      `<img src="/images/${encodeURIComponent(files[i % files.length]!)}?${i}" loading="lazy" alt="">`,
  ).join('');
  const html = `<!doctype html><meta charset="utf-8"><style>
body{margin:0;display:grid;grid-template-columns:repeat(${COLUMNS},1fr);gap:4px}
img{width:100%;aspect-ratio:1;object-fit:cover;display:block}</style>${images}`;
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    const file = path.startsWith('/images/') ? path.slice('/images/'.length) : '';
    if (!files.includes(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=3600' });
    createReadStream(join(dir, file)).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const tab = await context.newPage();
    await tab.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
    await tab.waitForLoadState('load');
    return await drag(tab, null);
  } finally {
    await browser.close();
    server.close();
  }
}
