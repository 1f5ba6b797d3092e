import type { Locator, Page } from '@playwright/test';
import { foldersMovedIn } from './library-folders';
import { expect, test, openScreen } from './studio-fixture';

const FOLDERS = 8;
const PER_FOLDER = 100;
const IMAGES = FOLDERS * PER_FOLDER;
/** Less than the time the gallery waits after a scroll event before it counts scrolling as stopped (60 ms). */
const IN_TIME = 45;

/** Puts `cellsOnScreen(gallery)` in the page: the gallery's cells at least partly on screen. */
async function installCellsOnScreen(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { cellsOnScreen(el: Element): Element[] }).cellsOnScreen = (el) => {
      const g = el.getBoundingClientRect();
      return [...el.querySelectorAll('[data-testid="library-cell"]')].filter((c) => {
        const r = c.getBoundingClientRect();
        return r.bottom > g.top && r.top < g.bottom;
      });
    };
  });
}

/** Waits until every cell on screen shows its picture, loaded. */
async function allShown(gallery: Locator): Promise<void> {
  await expect
    .poll(() =>
      gallery.evaluate((el) => {
        const cells = (window as unknown as { cellsOnScreen(el: Element): Element[] }).cellsOnScreen(el);
        return (
          cells.length > 0 &&
          cells.every((c) => {
            const img = c.querySelector('img');
            return img?.complete && img.naturalWidth > 0;
          })
        );
      }),
    )
    .toBe(true);
}

interface Step {
  /** Since the scroll event before this one (null for the first). */
  since: number | null;
  /** From this step's scroll event to the moment its cells were read (null: no event seen). */
  wait: number | null;
  cells: number;
  /** Cells on screen with an <img>, and <img> put in the gallery since the step began. */
  pictures: number;
  inserted: number;
}

/**
 * In the page: the gallery, at rest, dragged to its top by jumps of a screen and a half, one a
 * frame, as a hand drags the scroll bar; what was on screen two frames after each jump.
 */
async function dragToTop(gallery: Locator): Promise<Step[]> {
  return gallery.evaluate(async (el) => {
    const cellsOnScreen = (window as unknown as { cellsOnScreen(el: Element): Element[] }).cellsOnScreen;
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const events: number[] = [];
    const onScroll = () => events.push(performance.now());
    el.addEventListener('scroll', onScroll, { passive: true });
    let inserted = 0;
    const watcher = new MutationObserver((list) => {
      for (const m of list)
        for (const n of m.addedNodes)
          if (n instanceof HTMLElement && (n.tagName === 'IMG' || n.querySelector('img'))) inserted++;
    });
    watcher.observe(el, { childList: true, subtree: true });
    await new Promise((r) => setTimeout(r, 300));
    const out: Step[] = [];
    const jump = el.clientHeight * 1.5;
    for (let top = el.scrollTop - jump; top >= 0; top -= jump) {
      const seen = events.length;
      inserted = 0;
      el.scrollTop = top;
      await frame();
      await frame();
      const read = performance.now();
      const event = events[seen];
      const before = events[seen - 1];
      const cells = cellsOnScreen(el);
      out.push({
        since: event !== undefined && before !== undefined && seen > 0 ? event - before : null,
        wait: event === undefined ? null : read - event,
        cells: cells.length,
        pictures: cells.filter((c) => c.querySelector('img')).length,
        inserted,
      });
    }
    watcher.disconnect();
    el.removeEventListener('scroll', onScroll);
    return out;
  });
}

test('dragging the scroll bar shows placeholders, even for pictures seen before; one jump, and the end of a drag, show the pictures', async ({
  page,
  studio,
}) => {
  test.setTimeout(180_000);
  const root = (await studio.call('settings.get')).libraryDir as string;
  await page.setViewportSize({ width: 1280, height: 800 });
  await openScreen(page, studio, 'Library');
  await expect(page.getByText(/The library is empty/).first()).toBeVisible();
  await foldersMovedIn(root, {
    folders: FOLDERS,
    perFolder: PER_FOLDER,
    name: (b) => `2026-11-${String(b + 1).padStart(2, '0')} Drag ${b}`,
    task: (b) => `Drag ${b}`,
    prompt: (b, i) => `Drag ${b}-${i + 1}: a glazed vase`,
  });
  const count = page.getByTestId('library-count');
  await expect(count).toHaveText(`${IMAGES} of ${IMAGES} images`, { timeout: 60_000 });
  const gallery = page.getByTestId('library-gallery');
  await installCellsOnScreen(page);

  // Every picture seen once: the list walked down half a screen at a time, each screen waited for.
  const screens = await gallery.evaluate((el) => el.scrollHeight / el.clientHeight);
  expect(screens).toBeGreaterThan(8);
  for (let top = 0; ;) {
    await gallery.evaluate((el, to) => (el.scrollTop = to), top);
    await allShown(gallery);
    const { end, half } = await gallery.evaluate((el) => ({
      end: el.scrollTop + el.clientHeight >= el.scrollHeight - 2,
      half: el.clientHeight / 2,
    }));
    if (end) break;
    top += half;
  }

  // Dragged back to the top. The first jump, from a gallery at rest, is a single one (as End or
  // Home): it lands on pictures seen before, drawn at once. Each later one brings a screen of new
  // cells, drawn with placeholders: no screen of pictures to lay out and decode at every step. A
  // step is judged only where its scroll event came, and was read, in less time than the gallery
  // waits before it counts scrolling as stopped (a slower frame is a pause); up to three drags, for
  // a loaded machine.
  const singles: Step[] = [];
  const dragged: Step[] = [];
  const all: Step[][] = [];
  for (let round = 0; round < 3 && (singles.length < 1 || dragged.length < 3); round++) {
    if (round > 0) {
      await gallery.evaluate((el) => (el.scrollTop = el.scrollHeight));
      await allShown(gallery);
    }
    const [single, ...rest] = await dragToTop(gallery);
    all.push([single!, ...rest]);
    if (single!.wait !== null && single!.wait < IN_TIME) singles.push(single!);
    dragged.push(...rest.filter((s) => s.since !== null && s.since < IN_TIME && s.wait! < IN_TIME));
  }
  const report = JSON.stringify(all);
  expect(singles.length, report).toBeGreaterThanOrEqual(1);
  for (const s of singles) {
    expect(s.cells, report).toBeGreaterThan(0);
    expect(s.pictures, report).toBe(s.cells);
  }
  expect(dragged.length, report).toBeGreaterThanOrEqual(3);
  for (const s of dragged) {
    expect(s.cells, report).toBeGreaterThan(0);
    expect(s.pictures, report).toBe(0);
    expect(s.inserted, report).toBe(0);
  }

  // Once the drag stops, the screen's pictures are back.
  await allShown(gallery);
  await expect(page.locator('[data-testid="library-cell"][data-index="0"] img')).toBeVisible();
});
