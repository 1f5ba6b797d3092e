// The gallery bench's reference for an open (issue 26): a plain page of <img> elements showing the
// same files (the newest batch's images, as the Library's first screen does), in the same browser
// and window size, timed from the navigation to the frame after its top row is decoded. Nothing of
// the studio is in it: no thumbnails, no API, no React; a fresh browser context each time, so no
// cache of the files either.
import { chromium } from '@playwright/test';
import { createReadStream, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '../e2e/playwright.config';
import type { BenchLibrary } from './make-library';

/** As many as the Library's first screen holds at this window size, and its top row's count. */
const SHOWN = 28;
const TOP_ROW = 7;

function page(files: string[]): string {
  const images = files.map((f) => `<img src="/images/${encodeURIComponent(f)}" alt="">`).join('');
  return `<!doctype html><meta charset="utf-8"><style>
body{margin:0;display:grid;grid-template-columns:repeat(${TOP_ROW},1fr);gap:4px}
img{width:100%;aspect-ratio:1;object-fit:cover;display:block}</style>${images}
<script>
const firstRow = [...document.images].slice(0, ${TOP_ROW});
Promise.all(firstRow.map((i) => i.decode())).then(() =>
  requestAnimationFrame(() => requestAnimationFrame(() => (window.__drawn = performance.now()))));
</script>`;
}

/** Milliseconds from navigation to the top row drawn, once per run (each in a fresh context). */
export async function plainGridOpens(library: BenchLibrary, runs = 3): Promise<number[]> {
  const dir = join(library.root, library.newestFolder, 'images');
  const files = readdirSync(dir).sort().slice(0, SHOWN);
  const html = page(files);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    const file = path.startsWith('/images/') ? path.slice('/images/'.length) : '';
    if (!files.includes(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
    createReadStream(join(dir, file)).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const tab = await context.newPage();
      await tab.goto(url);
      await tab.waitForFunction('window.__drawn !== undefined', undefined, { timeout: 60_000 });
      times.push((await tab.evaluate('window.__drawn')) as number);
      await context.close();
    }
    return times;
  } finally {
    await browser.close();
    server.close();
  }
}
