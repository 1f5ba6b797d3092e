import type { Locator } from '@playwright/test';
import { foldersMovedIn } from './library-folders';
import { expect, test, openScreen } from './studio-fixture';

const FOLDERS = 4;
const PER_FOLDER = 100;
const IMAGES = FOLDERS * PER_FOLDER;

/** The gallery's cells on screen: how many, and how many show a picture that has loaded. */
function onScreen(gallery: Locator) {
  return gallery.evaluate((el) => {
    const g = el.getBoundingClientRect();
    const cells = [...el.querySelectorAll('[data-testid="library-cell"]')].filter((c) => {
      const r = c.getBoundingClientRect();
      return r.bottom > g.top && r.top < g.bottom;
    });
    const shown = cells.filter((c) => {
      const img = c.querySelector('img');
      return img?.complete && img.naturalWidth > 0;
    });
    return { cells: cells.length, shown: shown.length };
  });
}

test('dragging the scroll bar shows placeholders, even for pictures seen before; one jump, and the end of a drag, show the pictures', async ({
  page,
  studio,
}) => {
  test.setTimeout(120_000);
  const root = (await studio.call('settings.get')).libraryDir as string;
  await page.setViewportSize({ width: 1280, height: 800 });
  await openScreen(page, studio, 'Library');
  await expect(page.getByText(/The library is empty/).first()).toBeVisible();
  await foldersMovedIn(root, {
    folders: FOLDERS,
    perFolder: PER_FOLDER,
    name: (b) => `2026-11-0${b + 1} Drag ${b}`,
    task: (b) => `Drag ${b}`,
    prompt: (b, i) => `Drag ${b}-${i + 1}: a glazed vase`,
  });
  const count = page.getByTestId('library-count');
  await expect(count).toHaveText(`${IMAGES} of ${IMAGES} images`, { timeout: 60_000 });
  const gallery = page.getByTestId('library-gallery');

  // Every picture seen once: the list walked down half a screen at a time, each screen waited for.
  const screens = await gallery.evaluate((el) => el.scrollHeight / el.clientHeight);
  expect(screens).toBeGreaterThan(4);
  for (let top = 0; ;) {
    await gallery.evaluate((el, to) => (el.scrollTop = to), top);
    await expect
      .poll(async () => {
        const { cells, shown } = await onScreen(gallery);
        return cells > 0 && shown === cells;
      })
      .toBe(true);
    const { end, half } = await gallery.evaluate((el) => ({
      end: el.scrollTop + el.clientHeight >= el.scrollHeight - 2,
      half: el.clientHeight / 2,
    }));
    if (end) break;
    top += half;
  }

  // Dragged back to the top by jumps of a screen and a half, one a frame, as a hand drags the scroll
  // bar. The first jump, as a single one (End, a click in the track) would, lands on pictures seen
  // before, drawn at once. Each later one brings a screen of new cells, drawn with placeholders, not
  // with a screen of pictures to lay out and decode at every step. A step is judged only where less
  // time passed since the one before than the gallery waits before it counts scrolling as stopped
  // (60 ms): a slower frame is a pause.
  const steps = await gallery.evaluate(async (el) => {
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const out: { gap: number; cells: number; pictures: number }[] = [];
    const jump = el.clientHeight * 1.5;
    // The walk's last scroll long over: the drag starts from a gallery at rest.
    await new Promise((r) => setTimeout(r, 300));
    let before = -Infinity;
    for (let top = el.scrollTop - jump; top >= 0; top -= jump) {
      const at = performance.now();
      el.scrollTop = top;
      // The scroll event, then the grid's answer to it.
      await frame();
      await frame();
      const g = el.getBoundingClientRect();
      const cells = [...el.querySelectorAll('[data-testid="library-cell"]')].filter((c) => {
        const r = c.getBoundingClientRect();
        return r.bottom > g.top && r.top < g.bottom;
      });
      out.push({
        // The longer of: since the scroll before, and since this one (to its answer read here).
        gap: Math.max(at - before, performance.now() - at),
        cells: cells.length,
        pictures: cells.filter((c) => c.querySelector('img')).length,
      });
      before = at;
    }
    return out;
  });
  const [single, ...dragged] = steps;
  expect(single!.cells).toBeGreaterThan(0);
  expect(single!.pictures, JSON.stringify(steps)).toBe(single!.cells);
  const judged = dragged.filter((s) => s.gap < 50);
  expect(judged.length, JSON.stringify(steps)).toBeGreaterThanOrEqual(2);
  for (const s of judged) {
    expect(s.cells).toBeGreaterThan(0);
    expect(s.pictures, JSON.stringify(steps)).toBe(0);
  }

  // Once the drag stops, the screen's pictures are back, and so are the top's.
  await expect
    .poll(async () => {
      const { cells, shown } = await onScreen(gallery);
      return cells > 0 && shown === cells;
    })
    .toBe(true);
  await gallery.evaluate((el) => (el.scrollTop = 0));
  await expect(page.locator('[data-testid="library-cell"][data-index="0"] img')).toBeVisible();
});
