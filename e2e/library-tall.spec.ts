import { foldersMovedIn } from './library-folders';
import { expect, test, openScreen } from './studio-fixture';

const FOLDERS = 300;
const PER_FOLDER = 200;
const IMAGES = FOLDERS * PER_FOLDER;
/** Chromium lays out no element taller than this. */
const CHROMIUM_MAX_HEIGHT = 33_554_430;

const folderName = (b: number) => `2026-11-${String((b % 28) + 1).padStart(2, '0')} Tall ${b}`;

test('60,000 images in one column: an honest count while indexing, and End reaches the oldest past Chromium’s height limit', async ({
  page,
  studio,
}) => {
  test.setTimeout(240_000);
  const root = (await studio.call('settings.get')).libraryDir as string;
  // A window a little narrow and the largest thumbnails: one image a row, some 760 px each, so 60,000
  // images need more than Chromium's 33,554,430 px (as a million do at four a row).
  await page.setViewportSize({ width: 1240, height: 800 });
  await openScreen(page, studio, 'Library');
  await expect(page.getByText(/The library is empty/).first()).toBeVisible();
  const slider = page.getByTestId('library-thumb-size');
  await slider.fill('400');

  // While the first build runs, every count shown is an estimate or a count so far, never a total.
  const count = page.getByTestId('library-count');
  const seen = new Set<string>();
  const watching = (async () => {
    for (;;) {
      const text = (await count.textContent()) ?? '';
      seen.add(text);
      if (text.startsWith(`${IMAGES.toLocaleString('en-US')} of`)) return;
      await page.waitForTimeout(100);
    }
  })();
  // 60,000 images in 300 batch folders, moved in while the studio runs.
  await foldersMovedIn(root, {
    folders: FOLDERS,
    perFolder: PER_FOLDER,
    name: folderName,
    task: (b) => `Tall ${b}`,
    prompt: (b, i) => `Tall ${b}-${i + 1}: a ceramic mug`,
  });
  await expect(count).toHaveText(
    `${IMAGES.toLocaleString('en-US')} of ${IMAGES.toLocaleString('en-US')} images`,
    {
      timeout: 180_000,
    },
  );
  await watching;
  const indexing = [...seen].filter((t) => t.startsWith('Indexing'));
  expect(indexing.length).toBeGreaterThan(0);
  for (const text of seen) {
    const total = /^([\d,]+) of ([\d,]+) images?$/.exec(text);
    // A total shown is the library's whole (or the empty library before the folders came).
    if (total) expect([`${IMAGES.toLocaleString('en-US')}`, '0']).toContain(total[2]);
    const about = /^Indexing… [\d,]+ of about ([\d,]+) images$/.exec(text);
    if (about) expect(Math.abs(Number(about[1]!.replaceAll(',', '')) - IMAGES)).toBeLessThan(IMAGES / 10);
  }

  // The rows are taller than Chromium can lay out; the scroll range is not.
  const gallery = page.getByTestId('library-gallery');
  await expect(gallery).toHaveAttribute('data-columns', '1');
  const sizes = await gallery.evaluate((el) => ({
    scrollHeight: el.scrollHeight,
    row: (el.querySelector('.lib-row') as HTMLElement).offsetHeight,
  }));
  expect(sizes.row * IMAGES).toBeGreaterThan(CHROMIUM_MAX_HEIGHT);
  expect(sizes.scrollHeight).toBeLessThan(CHROMIUM_MAX_HEIGHT);

  // End: the focus on the last image, the oldest batch's last one, in view.
  const oldest = `${folderName(0)}/images/row-${String(PER_FOLDER).padStart(3, '0')}.png`;
  await gallery.focus();
  await page.keyboard.press('End');
  const last = page.locator(`[data-testid="library-cell"][data-index="${IMAGES - 1}"]`);
  await expect(last).toHaveAttribute('data-id', oldest);
  await expect(last).toBeInViewport();

  // Home, then the scrollbar dragged to the bottom: the same last image at the bottom.
  await page.keyboard.press('Home');
  await expect(page.locator('[data-testid="library-cell"][data-index="0"]')).toBeInViewport();
  await gallery.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(last).toBeInViewport();
  await expect(last).toHaveAttribute('data-id', oldest);

  // The batch filter finds any of the 300 batches, drawing 50 at most, and filters by one.
  await page.getByTestId('library-batch').click();
  const picker = page.getByTestId('library-batch-picker');
  await expect(picker.getByRole('option')).toHaveCount(51);
  await expect(page.getByTestId('library-batch-found')).toHaveText(
    `50 of ${FOLDERS} batches shown: type to find the others`,
  );
  await page.getByTestId('library-batch-search').fill('tall 0');
  await picker.getByRole('option', { name: `Tall 0 (${PER_FOLDER})`, exact: true }).click();
  await expect(picker).toBeHidden();
  await expect(page.getByTestId('library-batch')).toHaveText(`Tall 0 (${PER_FOLDER})`);
  await expect(count).toContainText(`${PER_FOLDER} of ${IMAGES.toLocaleString('en-US')} images`);
  // Another list starts at its top, though the gallery was left at its end (by the scroll bar: the
  // focus stayed on the first image, so no move of the focus brings it back).
  const first = page.locator('[data-testid="library-cell"][data-index="0"]');
  await expect(first).toBeInViewport();
  await expect(first).toHaveClass(/\bfocused\b/);
  await expect(page.locator('[data-testid="library-cell"].focused')).toHaveCount(1);
});
