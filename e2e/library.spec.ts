import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import extractChunks from 'png-chunks-extract';
import {
  batchInLibrary,
  expect,
  expectNoSeriousA11yIssues,
  screenshotBothThemes,
  test,
  openScreen,
} from './studio-fixture';
import { soleMarksOnDisk } from '../src-main/test/helpers/marks-on-disk';

const PROMPTS = Array.from({ length: 24 }, (_, i) =>
  i % 3 === 0
    ? `Lavender sprig beside a ceramic mug ${i + 1}`
    : i % 3 === 1
      ? `一只青花瓷杯放在木桌上 ${i + 1}`
      : `Glazed vase on linen ${i + 1}`,
);

/** iTXt chunks, decoded by hand from chunks an independent reader split out. */
function textChunks(png: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  for (const chunk of extractChunks(new Uint8Array(png))) {
    if (chunk.name !== 'iTXt') continue;
    const data = Buffer.from(chunk.data);
    const keyEnd = data.indexOf(0);
    const key = data.subarray(0, keyEnd).toString('latin1');
    let at = keyEnd + 3; // null, compression flag, compression method
    at = data.indexOf(0, at) + 1; // language tag
    at = data.indexOf(0, at) + 1; // translated keyword
    out[key] = data.subarray(at).toString('utf8');
  }
  return out;
}

test('search in English and Chinese, cull 20 by keyboard, compare two, export the picks', async ({
  page,
  studio,
}) => {
  const folder = await batchInLibrary(studio, 'img', 'Library review', PROMPTS);
  const settings = await studio.call('settings.get');
  await openScreen(page, studio, 'Library');
  const cells = page.getByTestId('library-cell');
  await expect(page.getByTestId('library-count')).toContainText('24 of 24');
  await expect(cells.first().locator('img')).toBeVisible();
  // Real images, loaded by URL (streamed and cached by the browser), never base64 in the page.
  await expect
    .poll(() =>
      cells
        .first()
        .locator('img')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBeGreaterThan(0);
  expect(await page.locator('[data-testid="library-cell"] img[src^="data:"]').count()).toBe(0);
  // Loaded by its URL, at a size that covers the cell on this screen.
  expect(await page.locator('[data-testid="library-cell"] img').first().getAttribute('src')).toMatch(
    /^\/images\/library\/[^/]+\/thumb\/(128|256|384|640|800)$/,
  );

  await page.getByTestId('library-search').fill('lavender');
  await expect(page.getByTestId('library-count')).toContainText('8 of 24');
  await expect(cells.first()).toContainText('Lavender');
  await page.getByTestId('library-search').fill('青花瓷');
  await expect(page.getByTestId('library-count')).toContainText('8 of 24');
  await expect(cells.first()).toContainText('青花瓷杯');
  await page.getByTestId('library-search').fill('');
  await expect(page.getByTestId('library-count')).toContainText('24 of 24');

  // Cull 20 by keyboard: pick, reject and star as the arrows move on.
  await page.getByTestId('library-gallery').focus();
  const keys = [
    'p',
    'x',
    '5',
    'p',
    'x',
    '3',
    'p',
    'p',
    'x',
    '4',
    'p',
    'x',
    'p',
    '2',
    'x',
    'p',
    '1',
    'p',
    'x',
    'p',
  ];
  for (const key of keys) {
    await page.keyboard.press(key);
    await page.keyboard.press('ArrowRight');
  }
  const picks = keys.filter((k) => k === 'p').length;
  await page.getByTestId('library-review').selectOption('picked');
  await expect(page.getByTestId('library-count')).toContainText(`${picks} of 24`);
  // The marks are on disk, in the batch's folder.
  const marksOnDisk = () => Object.values(soleMarksOnDisk(join(settings.libraryDir, folder)));
  await expect.poll(() => marksOnDisk().filter((m) => m.mark === 'picked').length).toBe(picks);
  const marks = marksOnDisk();
  expect(marks.filter((m) => m.mark === 'rejected')).toHaveLength(keys.filter((k) => k === 'x').length);
  expect(marks.filter((m) => m.stars > 0)).toHaveLength(keys.filter((k) => /\d/.test(k)).length);

  // Compare two picks side by side, then with the slider.
  await cells.nth(0).click();
  await cells.nth(1).click({ modifiers: ['Control'] });
  await page.getByTestId('library-compare').click();
  await expect(page.getByTestId('compare').locator('img')).toHaveCount(2);
  await page.getByTestId('compare-slider-mode').click();
  await page.getByTestId('compare-slider').fill('30');
  await page.getByRole('button', { name: 'Close' }).click();

  // The lightbox shows the prompt, and moves on.
  await cells.nth(0).dblclick();
  await expect(page.getByTestId('lightbox-image')).toBeVisible();
  await expect
    .poll(() => page.getByTestId('lightbox-image').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  expect(await page.getByTestId('lightbox-image').getAttribute('src')).toMatch(/\/original$/);
  expect(await page.locator('[data-testid="lightbox"] img[src^="data:"]').count()).toBe(0);
  const firstPrompt = await page.getByTestId('lightbox-prompt').textContent();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('lightbox-prompt')).not.toHaveText(firstPrompt!);
  await page.keyboard.press('Escape');

  await screenshotBothThemes(page, 'library');
  await expectNoSeriousA11yIssues(page);

  // Export the picks as a ZIP.
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('Control+a');
  const download = page.waitForEvent('download');
  await page.getByTestId('library-more').click();
  await page.getByTestId('library-export-zip').click();
  const file = join(mkdtempSync(join(tmpdir(), 'export-')), 'picks.zip');
  await (await download).saveAs(file);
  expect(execFileSync('unzip', ['-t', file]).toString()).toContain('No errors detected');
  const out = join(file, '..', 'x');
  execFileSync('unzip', ['-q', file, '-d', out]);
  const pngs = readdirSync(join(out, 'images')).filter((f) => f.endsWith('.png'));
  expect(pngs).toHaveLength(picks);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
    file: string;
    prompt: string;
  }[];
  expect(manifest).toHaveLength(picks);
  expect(readFileSync(join(out, 'manifest.csv'), 'utf8')).toContain('prompt');
  for (const entry of manifest) {
    const chunks = textChunks(readFileSync(join(out, entry.file)));
    expect(chunks.prompt).toBe(entry.prompt);
    expect(PROMPTS).toContain(chunks.prompt);
    expect(JSON.parse(chunks.parameters!)).toMatchObject({
      model: 'imgvendor-3.1-flash-image',
      task_name: 'Library review',
    });
  }
});

test('the library tells the truth: search scope, damaged folders, stars by mouse, compare, offline', async ({
  page,
  studio,
}) => {
  const folder = await batchInLibrary(studio, 'harbour', 'Harbour posters', [
    'A lighthouse at dusk',
    'Gulls over the pier',
    'Fishing boats at dawn',
  ]);
  const { libraryDir } = await studio.call('settings.get');
  cpSync(join(libraryDir, folder), join(libraryDir, 'damaged copy'), { recursive: true });
  writeFileSync(join(libraryDir, 'damaged copy', 'batch.json'), '{batch: {"id": "x"}}');
  await openScreen(page, studio, 'Library');

  // The search box says what it searches, and does it: a batch name finds its images.
  const search = page.getByRole('searchbox', { name: 'Search prompts, batch names and ids' });
  await search.fill('harbour');
  await expect(page.getByTestId('library-count')).toContainText('3 of 3');
  await search.fill('');

  // A damaged folder is explained in words, never with the parser's text.
  const problems = page.getByTestId('library-problems');
  await problems.getByText('1 folder could not be read in full').click();
  await expect(problems).toContainText('damaged copy: batch.json is damaged (not valid JSON). Skipped.');
  await expect(problems).not.toContainText(/position|Expected/);

  // Stars by mouse, in the gallery and in the lightbox.
  const cells = page.getByTestId('library-cell');
  await cells.nth(0).click();
  const toolbarStars = page.locator('.actions').getByRole('group', { name: 'Stars' });
  await toolbarStars.getByRole('button', { name: '4 stars' }).click();
  await expect(cells.nth(0)).toHaveAttribute('data-stars', '4');
  await expect(toolbarStars.getByRole('button', { name: '4 stars' })).toHaveAttribute('aria-pressed', 'true');
  await cells.nth(1).dblclick();
  const lightbox = page.getByRole('dialog');
  await lightbox.getByRole('group', { name: 'Stars' }).getByRole('button', { name: '2 stars' }).click();
  await page.keyboard.press('Escape');
  await expect(cells.nth(1)).toHaveAttribute('data-stars', '2');
  const stars = () =>
    Object.values(soleMarksOnDisk(join(libraryDir, folder)))
      .map((m) => m.stars)
      .sort();
  await expect.poll(stars).toEqual([2, 4]);

  // And on a cell itself: its own stars, without opening the lightbox or changing the selection.
  const selection = () =>
    page.locator('[role="option"][aria-selected="true"]').evaluateAll((els) => els.map((el) => el.id));
  const selectedBefore = await selection();
  expect(selectedBefore).toHaveLength(1);
  const third = cells.nth(2);
  const prompt = await third.locator('.lib-caption').textContent();
  await third.hover();
  // One set of buttons, laid over the hovered cell and named after its image.
  const cellStars = page.getByRole('group', { name: `Stars of “${prompt}”` });
  await expect(cellStars).toHaveCSS('opacity', '1');
  const rateFive = cellStars.getByRole('button', { name: 'Rate 5 stars' });
  await rateFive.click();
  await expect(third).toHaveAttribute('data-stars', '5');
  await expect(rateFive).toHaveAttribute('aria-pressed', 'true');
  await expect(third.getByTestId('library-stars-badge')).toHaveText('★★★★★');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await selection()).toEqual(selectedBefore);
  await expect.poll(stars).toEqual([2, 4, 5]);
  // The same rating again clears it, as in the lightbox.
  await rateFive.click();
  await expect(third).toHaveAttribute('data-stars', '0');
  await expect(third.getByTestId('library-stars-badge')).toHaveCount(0);
  await expect.poll(async () => (await stars()).filter((n) => n > 0)).toEqual([2, 4]);
  expect(await selection()).toEqual(selectedBefore);

  // Compare: an opaque backdrop, and each caption right under its image.
  await cells.nth(0).click();
  await cells.nth(1).click({ modifiers: ['Control'] });
  await page.getByTestId('library-compare').click();
  const compare = page.getByTestId('compare');
  await expect(compare.locator('img')).toHaveCount(2);
  expect(await compare.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/^rgb\(/);
  for (const figure of await compare.locator('figure').all()) {
    const image = (await figure.locator('img').boundingBox())!;
    const caption = (await figure.locator('figcaption').boundingBox())!;
    expect(caption.y - (image.y + image.height)).toBeLessThan(24);
    expect(caption.y).toBeGreaterThanOrEqual(image.y + image.height - 1);
  }
  await compare.getByRole('button', { name: 'Close' }).click();

  // Offline, reviewing goes on: one compact line in the top bar, details on demand.
  const offline = await studio.call('profiles.save', {
    name: 'Away',
    baseUrl: 'http://127.0.0.1:9',
    gatewayKey: 'sk-anything',
  });
  await studio.call('profiles.activate', { id: offline.id });
  const indicator = page.getByTestId('connection-indicator');
  await expect(indicator).toHaveAttribute('data-state', 'error');
  await expect(indicator).toContainText('Offline');
  await expect(indicator.getByRole('alert')).toHaveCount(0);
  expect((await indicator.boundingBox())!.height).toBeLessThan(60);
  await expect(cells).toHaveCount(3);
  await indicator.getByRole('button', { name: 'Details' }).click();
  await expect(indicator.getByRole('alert')).toHaveAttribute('data-error-code', /^NETWORK_/);
  await expectNoSeriousA11yIssues(page);
});
