// Culling 200 images in the loupe, as a designer does: one key per image (P or X), each moving on to
// the next, at a fast culler's pace of four keys a second. Timed in the page from the key to the end of the frame that shows the next image decoded.
// The reference, in the same browser and the same run: a plain page that swaps one <img> between the
// same 200 files, served by the same studio, on the same keys, with nothing else on it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeLibrary } from './make-library';
import { openStudioSession, p95, median } from './studio-session';

const IMAGES = 200;
/** A fast culler's pace, keys a quarter of a second apart (four images a second), for both pages. */
const CADENCE_MS = 250;
const atPace = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, CADENCE_MS - ms)));

/** In the page: presses a key on `target` and waits for `shown()` to change and be decoded, then a frame. */
const PAGE_HELPERS = `
window.__press = async (selector, key, shownId) => {
  const before = shownId();
  const t0 = performance.now();
  document.querySelector(selector).dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  for (;;) {
    await new Promise((r) => requestAnimationFrame(r));
    const id = shownId();
    const img = document.querySelector('[data-bench-shown]');
    if (img && id !== before && img.complete && img.naturalWidth > 0) {
      await img.decode().catch(() => undefined);
      await new Promise((r) => requestAnimationFrame(r));
      return performance.now() - t0;
    }
    if (performance.now() - t0 > 10000) return Infinity;
  }
};
// The loupe draws a new <img> per image: the one on screen is marked as the one to watch.
window.__loupeShown = () => {
  const img = document.querySelector('[data-testid="lightbox-image"]');
  if (img) img.setAttribute('data-bench-shown', '');
  return img ? img.getAttribute('data-id') : '';
};
window.__plainShown = () => document.querySelector('img').getAttribute('src');`;
// Page code is written as strings: tsx would otherwise wrap the functions in a helper the page lacks.

const library = await makeLibrary(1, IMAGES);
const session = await openStudioSession({ dataDir: mkdtempSync(join(tmpdir(), 'bench-cull-')) });
try {
  await session.page.setViewportSize({ width: 1280, height: 800 });
  await session.call('settings.update', { libraryDir: library.root });
  for (let i = 0; i < 600; i++) {
    const overview = await session.call('library.overview');
    if (overview.images === IMAGES && !overview.indexing) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const first = await session.call('library.query', { offset: 0, limit: IMAGES });
  await session.call('library.mark', { ids: first.items.map((i) => i.id), mark: null, stars: 0 });
  const { page } = session;
  await page.goto(session.url);
  await page.getByRole('link', { name: 'Library' }).click();
  await page
    .getByTestId('library-count')
    .filter({ hasText: `${IMAGES} of ${IMAGES}` })
    .waitFor();
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('Space');
  await page.getByTestId('lightbox-image').waitFor();
  await page.evaluate(PAGE_HELPERS);

  // The studio's loupe: 199 keys, each on the image shown, each moving on to the next.
  const studioMs: number[] = [];
  for (let k = 0; k < IMAGES - 1; k++) {
    const key = k % 4 === 3 ? 'x' : 'p';
    const ms = (await page.evaluate(
      `window.__press('[data-testid="lightbox"]', '${key}', window.__loupeShown)`,
    )) as number;
    studioMs.push(ms);
    await atPace(ms);
  }
  const keys = studioMs.length;
  // The marks are written one after another behind the keys: counted at main once they are all in.
  let marked = -1;
  for (let waited = 0; waited < 30; waited++) {
    const now = (await session.call('library.query', { offset: 0, limit: IMAGES })).items.filter(
      (i) => i.mark !== null,
    ).length;
    if (now === marked) break;
    marked = now;
    await new Promise((r) => setTimeout(r, 500));
  }

  // The plain page: one <img>, its src set to the next of the same originals on each key.
  const urls = first.items.map((i) => `/images/library/${encodeURIComponent(i.id)}/original`);
  await page.evaluate(`(() => {
    const list = ${JSON.stringify(urls)};
    document.body.innerHTML = '<img data-bench-shown style="max-width:100vw;max-height:100vh">';
    const img = document.querySelector('img');
    let at = 0;
    img.src = list[0];
    document.addEventListener('keydown', () => {
      at = Math.min(list.length - 1, at + 1);
      img.src = list[at];
    });
  })()`);
  await page.evaluate(PAGE_HELPERS);
  const plainMs: number[] = [];
  for (let k = 0; k < IMAGES - 1; k++) {
    const ms = (await page.evaluate(`window.__press('body', 'p', window.__plainShown)`)) as number;
    plainMs.push(ms);
    await atPace(ms);
  }

  const figures = {
    keys,
    images_marked: marked,
    loupe_next_drawn_median_ms: +median(studioMs).toFixed(1),
    loupe_next_drawn_p95_ms: +p95(studioMs).toFixed(1),
    plain_img_swap_median_ms: +median(plainMs).toFixed(1),
    plain_img_swap_p95_ms: +p95(plainMs).toFixed(1),
  };
  console.log(`culled ${marked} of ${IMAGES} images with ${keys} keys (one per image, auto-advance)`);
  console.log(
    `loupe: key → next image drawn, median ${figures.loupe_next_drawn_median_ms} ms, p95 ${figures.loupe_next_drawn_p95_ms} ms`,
  );
  console.log(
    `plain <img> swap of the same files: median ${figures.plain_img_swap_median_ms} ms, p95 ${figures.plain_img_swap_p95_ms} ms`,
  );
  console.log(
    JSON.stringify({
      bench: 'cull',
      ...figures,
      target_p95_ms: 100,
      pass: marked === keys && figures.loupe_next_drawn_p95_ms < 100,
    }),
  );
} finally {
  await session.stop();
}
