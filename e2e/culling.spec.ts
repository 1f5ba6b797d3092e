import type { Page } from '@playwright/test';
import { batchInLibrary, expect, openScreen, screenshot, screenshotBothThemes, test } from './studio-fixture';

// Culling at a professional's speed, on a 13-inch laptop's window: the grid first, a size that
// follows Ctrl+- and Ctrl+=, a loupe that moves on after each mark, and Ctrl+Z.
test.use({ viewport: { width: 1280, height: 800 } });

/** How much of the window the gallery takes, and how many thumbnails are in view whole. */
async function galleryInView(
  page: Page,
): Promise<{ share: number; whole: number; columns: number; waiting: number }> {
  return page.getByTestId('library-gallery').evaluate((gallery) => {
    const g = gallery.getBoundingClientRect();
    const cells = [...gallery.querySelectorAll('[data-testid="library-cell"]')];
    const whole = cells.filter((cell) => {
      const r = cell.getBoundingClientRect();
      return r.top >= g.top && r.bottom <= g.bottom && r.left >= g.left && r.right <= g.right;
    }).length;
    // Cells at least partly in view whose picture has not loaded yet.
    const waiting = cells.filter((cell) => {
      const r = cell.getBoundingClientRect();
      const img = cell.querySelector('img');
      return r.bottom > g.top && r.top < g.bottom && !(img?.complete && img.naturalWidth > 0);
    }).length;
    return {
      share: g.height / window.innerHeight,
      whole,
      columns: Number(gallery.getAttribute('data-columns')),
      waiting,
    };
  });
}

/** The marks of the library as main has them, by id (what review.json says). */
async function marks(studio: { call(m: string, i?: unknown): Promise<any> }) {
  const { items } = await studio.call('library.query', {
    limit: 500,
    review: 'any',
    minStars: 0,
    sort: 'newest',
  });
  return new Map<string, string | null>(items.map((i: any) => [i.id, i.mark]));
}

test('the grid comes first, its size follows the keys, and the loupe culls one image per key, with undo', async ({
  page,
  studio,
}) => {
  for (const [i, subject] of ['teapot', 'lantern', 'kite'].entries())
    await batchInLibrary(
      studio,
      `cull-${i}`,
      `Cull ${subject}s`,
      Array.from({ length: 40 }, (_, n) => `A ${subject}, variant ${n + 1}`),
    );
  await openScreen(page, studio, 'Library');
  await expect(page.getByTestId('library-count')).toContainText('120 of 120');
  await expect(page.locator('[data-testid="library-cell"] img').first()).toBeVisible();

  // Grid first: at least 70 % of the window's height and 15 whole thumbnails at the default size.
  const first = await galleryInView(page);
  expect(first.share).toBeGreaterThanOrEqual(0.7);
  expect(first.whole).toBeGreaterThanOrEqual(15);
  // Ctrl+- shows more of them, Ctrl+= fewer, Ctrl+0 the default again; the choice is remembered.
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('Control+-');
  await expect.poll(async () => (await galleryInView(page)).whole).toBeGreaterThan(first.whole);
  await page.keyboard.press('Control+0');
  await expect.poll(async () => (await galleryInView(page)).whole).toBe(first.whole);
  await page.keyboard.press('Control+=');
  await expect.poll(async () => (await galleryInView(page)).whole).toBeLessThan(first.whole);
  await page.reload();
  await expect(page.getByTestId('library-count')).toContainText('120 of 120');
  await expect.poll(async () => (await galleryInView(page)).whole).toBeLessThan(first.whole);
  await page.keyboard.press('Control+0');
  // The screenshot shows the grid as it settles: every picture in view loaded.
  await expect.poll(async () => (await galleryInView(page)).waiting).toBe(0);
  await screenshotBothThemes(page, 'library-grid');

  // The loupe: Space opens it; ten presses of P or X mark ten images, each drawing the next.
  const before = await marks(studio);
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('Space');
  const loupe = page.getByTestId('lightbox');
  await expect(loupe).toBeVisible();
  await expect(loupe.getByTestId('filmstrip-cell')).not.toHaveCount(0);
  const shown: string[] = [];
  for (let n = 0; n < 10; n++) {
    const image = loupe.getByTestId('lightbox-image');
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    shown.push((await image.getAttribute('data-id'))!);
    await page.keyboard.press(n % 3 === 2 ? 'x' : 'p');
    await expect(loupe.getByText(`${n + 2} / 120`)).toBeVisible();
  }
  expect(new Set(shown).size).toBe(10);
  await expect
    .poll(async () => {
      const now = await marks(studio);
      return shown.filter((id) => now.get(id) !== before.get(id)).length;
    })
    .toBe(10);
  await page.screenshot({ path: 'docs/screenshots/library-loupe-en.png' });

  // Ctrl+Z takes back the last mark, in the loupe; Ctrl+Shift+Z puts it again.
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await marks(studio)).get(shown[9]!)).toBe(before.get(shown[9]!) ?? null);
  expect((await marks(studio)).get(shown[8]!)).not.toBe(before.get(shown[8]!) ?? null);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(async () => (await marks(studio)).get(shown[9]!)).toBe('picked');

  // With auto-advance off, a mark stays on its image.
  await loupe.getByTestId('lightbox-auto-advance').uncheck();
  await page.keyboard.press('x');
  await expect(loupe.getByText('11 / 120')).toBeVisible();
  await page.keyboard.press('Escape');

  // The place survives a reload: the filter and the focused image.
  await page.getByTestId('library-review').selectOption('picked');
  await expect(page.getByTestId('library-count')).toContainText('of 120');
  await page.reload();
  await expect(page.getByTestId('library-review')).toHaveValue('picked');
});

test('a right click on an image offers its actions, and the filters fold away', async ({ page, studio }) => {
  await batchInLibrary(studio, 'menu', 'Menu batch', ['A red cup', 'A blue cup', 'A green cup']);
  await openScreen(page, studio, 'Library');
  await expect(page.getByTestId('library-count')).toContainText('3 of 3');
  const cell = page.getByTestId('library-cell').nth(1);
  await cell.click({ button: 'right' });
  const menu = page.getByTestId('library-context-menu');
  await expect(menu).toBeVisible();
  await menu.getByRole('menuitem', { name: /^Reject/ }).click();
  await expect(menu).toHaveCount(0);
  await expect(cell).toHaveAttribute('data-mark', 'rejected');

  const before = (await page.getByTestId('library-gallery').boundingBox())!.height;
  await page.getByTestId('library-filters-toggle').click();
  await expect(page.getByTestId('library-review')).toHaveCount(0);
  expect((await page.getByTestId('library-gallery').boundingBox())!.height).toBeGreaterThanOrEqual(before);
  await page.reload();
  await expect(page.getByTestId('library-review')).toHaveCount(0);
  await page.getByTestId('library-filters-toggle').click();
  await expect(page.getByTestId('library-review')).toBeVisible();
});

test('near-identical outputs stack, open in place, and K keeps one and rejects the rest', async ({
  page,
  studio,
}) => {
  // A fixed seed makes the sandbox draw near-identical pictures, as a real model does.
  await batchInLibrary(studio, 'stack', 'Stacked vases', [
    'A glass vase [seed:vase]',
    'A glass vase [seed:vase]',
    'A glass vase [seed:vase]',
    'A glass vase [seed:vase]',
    'A copper kettle',
    'A paper lantern',
  ]);
  await openScreen(page, studio, 'Library');
  await expect(page.getByTestId('library-count')).toContainText('6 of 6');
  // The hashes are made in the background once the batch has arrived; the stack shows by itself.
  await expect(page.getByTestId('library-stack-badge').first()).toContainText('Stack of 4', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('library-stack-badge')).toHaveCount(4);

  await page.getByTestId('library-stacks').selectOption('one-near');
  await expect(page.getByTestId('library-count')).toContainText('3 of 6');
  await screenshotBothThemes(page, 'library-stacks');
  await page.getByTestId('language-select').selectOption('zh-CN');
  await expect(page.getByTestId('library-count')).toContainText('显示 3 张');
  await screenshot(page, 'library-stacks-zh-CN');
  await page.getByTestId('language-select').selectOption('en');
  const stacked = page.getByTestId('library-cell').filter({ has: page.getByTestId('library-stack-badge') });
  await stacked.click();
  await page.keyboard.press('s');
  await expect(page.getByTestId('library-stack-open')).toContainText('A stack of 4 near-identical images');
  await expect(page.getByTestId('library-count')).toContainText('4 of 6');
  await page.getByTestId('library-cell').nth(2).click();
  const kept = await page.getByTestId('library-cell').nth(2).getAttribute('data-id');
  await page.keyboard.press('k');
  await expect(page.getByTestId('library-message')).toContainText('rejected 3 others');
  await expect
    .poll(async () => [...(await marks(studio)).entries()].filter(([, m]) => m === 'rejected').length)
    .toBe(3);
  await expect.poll(async () => (await marks(studio)).get(kept!)).toBe('picked');
  // K was one decision, so one Ctrl+Z takes the whole stack back to unmarked.
  await page.keyboard.press('Control+z');
  await expect.poll(async () => [...(await marks(studio)).values()].filter((m) => m !== null).length).toBe(0);
  await page.getByTestId('library-stack-back').click();
  await expect(page.getByTestId('library-count')).toContainText('3 of 6');
});

test('similar outputs group at the looser level only, and open as one group', async ({ page, studio }) => {
  // `[similar:X]` makes the sandbox change each output for real: not near-identical, but similar.
  // "pear" draws four pictures 6–9 bits apart, their group joined by steps of at most 7: clear of
  // both thresholds (4 and 10), so a change of a bit or two in drawing cannot flip the test.
  await batchInLibrary(studio, 'similar', 'Similar pears', [
    ...Array.from({ length: 4 }, () => 'A clay pear [similar:pear]'),
    'A copper kettle',
    'A paper lantern',
  ]);
  await openScreen(page, studio, 'Library');
  await expect(page.getByTestId('library-count')).toContainText('6 of 6');
  await page.getByTestId('library-stacks').selectOption('one-similar');
  await expect(page.getByTestId('library-count')).toContainText('3 of 6', { timeout: 30_000 });
  const badge = page.getByTestId('library-stack-badge');
  await expect(badge).toHaveCount(1);
  await expect(badge).toContainText('Similar 4');
  // At the near-identical level none of the four stack: each is a decision of its own.
  await page.getByTestId('library-stacks').selectOption('one-near');
  await expect(page.getByTestId('library-count')).toContainText('6 of 6');
  await expect(page.getByTestId('library-stack-badge')).toHaveCount(0);
  await page.getByTestId('library-stacks').selectOption('all-similar');
  await expect(page.getByTestId('library-stack-badge')).toHaveCount(4);
  await page.getByTestId('library-cell').filter({ has: badge.first() }).first().click();
  await page.keyboard.press('s');
  await expect(page.getByTestId('library-stack-open')).toContainText('A group of 4 similar images');
  await expect(page.getByTestId('library-count')).toContainText('4 of 6');
});

test('the survey shows a prompt’s variants or the selection side by side, to choose one in one step', async ({
  page,
  studio,
}) => {
  await batchInLibrary(studio, 'survey', 'Teapot takes', [
    ...Array.from({ length: 4 }, () => 'A blue teapot on a wooden table'),
    'A copper kettle',
    'A paper lantern',
  ]);
  await openScreen(page, studio, 'Library');
  await expect(page.getByTestId('library-count')).toContainText('6 of 6');
  // One image focused: N brings every image of its prompt.
  await page.getByTestId('library-cell').filter({ hasText: 'A blue teapot' }).first().click();
  await page.keyboard.press('n');
  const takes = page.getByTestId('survey-take');
  await expect(takes).toHaveCount(4);
  await expect(page.getByTestId('survey')).toContainText('Survey: 4 images');
  // Side by side: all four in the window at once, none cut off.
  const boxes = await takes.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
    }),
  );
  expect(boxes).toEqual([true, true, true, true]);
  await screenshotBothThemes(page, 'library-survey');

  // Narrow the choice: take one out (unmarked), then choose the focused one.
  await page.keyboard.press('Delete');
  await expect(takes).toHaveCount(3);
  await page.keyboard.press('ArrowRight');
  const chosen = await takes.nth(1).getAttribute('data-id');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('survey')).toHaveCount(0);
  await expect(page.getByTestId('library-message')).toContainText('rejected 2 others');
  await expect.poll(async () => (await marks(studio)).get(chosen!)).toBe('picked');
  await expect
    .poll(async () => [...(await marks(studio)).values()].filter((m) => m === 'rejected').length)
    .toBe(2);
  // One choice, one undo step.
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('Control+z');
  await expect.poll(async () => [...(await marks(studio)).values()].filter((m) => m !== null).length).toBe(0);

  // A selection is surveyed as it is.
  await page.keyboard.press('Control+a');
  await page.getByTestId('library-survey').click();
  await expect(takes).toHaveCount(6);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('survey')).toHaveCount(0);

  // In Chinese, chosen while no dialog is open (the page behind a modal dialog is inert).
  await page.getByTestId('language-select').selectOption('zh-CN');
  await page.getByTestId('library-cell').filter({ hasText: 'A blue teapot' }).first().click();
  await page.keyboard.press('n');
  await expect(page.getByTestId('survey')).toContainText('并排挑选');
  await expect(takes).toHaveCount(4);
  await screenshot(page, 'library-survey-zh-CN');
});
