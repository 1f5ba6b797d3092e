import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { soleMarksOnDisk } from '../src-main/test/marks-on-disk';
import { expect, gotoCompose, screenshot, test, type RunningStudio } from './studio-fixture';

// A template of 4 subjects x 3 surfaces x 2 lights, two images a row, on two models: 96 images. Culled
// by the keyboard with a known pattern: every image on marble picked, candlelight rejected but where
// it is on marble. "What worked" must rank marble first with the exact counts the disk holds, open
// exactly its images, and make the next round's draft from it.
const FIRST = 'imgvendor-3.1-flash-image';
const SECOND = 'imgvendor-3-pro-image';
const SUBJECTS = ['mug', 'vase', 'teapot', 'bowl'];
const SURFACES = ['marble', 'oak', 'linen'];
const LIGHTS = ['candlelight', 'daylight'];
const PER_ROW = 2;

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: /Main navigation|主导航/ }).getByRole('link', { name });

/** Every image of the library as the disk holds it: its prompt (batch.json) and its mark (review/). */
async function imagesOnDisk(studio: RunningStudio) {
  const { libraryDir } = (await studio.call('settings.get')) as { libraryDir: string };
  const batches = (await studio.call('batches.list')) as { id: string }[];
  const images: { id: string; prompt: string; mark: string | null }[] = [];
  for (const b of batches) {
    const { download } = (await studio.call('batches.get', { id: b.id })) as { download: { folder: string } };
    const folder = join(libraryDir, download.folder);
    const marks = soleMarksOnDisk(folder);
    const record = JSON.parse(readFileSync(join(folder, 'batch.json'), 'utf8')) as {
      items: { prompt: string; images?: { file: string }[] }[];
    };
    for (const item of record.items)
      for (const image of item.images ?? [])
        images.push({ id: image.file, prompt: item.prompt, mark: marks[image.file]?.mark ?? null });
  }
  return images;
}

/** Culls the images a search finds: all selected by Ctrl+A in the gallery, then marked by a key. */
async function cullBySearch(page: Page, search: string, key: 'p' | 'x', count: number) {
  await page.getByTestId('library-search').fill(search);
  await expect(page.getByTestId('library-count')).toContainText(`${count} of 96 images`);
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('Control+a');
  await expect(page.getByTestId('library-count')).toContainText(`${count} selected`);
  await page.keyboard.press(key);
  const mark = key === 'p' ? 'picked' : 'rejected';
  await expect(page.locator(`[data-testid="library-cell"]:not([data-mark="${mark}"])`)).toHaveCount(0);
}

test('What worked ranks the surface that was picked, opens exactly its images and drafts the next round', async ({
  page,
  studio,
}) => {
  test.setTimeout(240_000);
  await gotoCompose(page, studio);
  await page.getByTestId('task-name').fill('Still life');
  await page.getByTestId('open-template').click();
  await page.getByTestId('template-input').fill('A {subject} on {surface}, {light}');
  await page.getByTestId('template-values-subject').fill(SUBJECTS.join('\n'));
  await page.getByTestId('template-values-surface').fill(SURFACES.join('\n'));
  await page.getByTestId('template-values-light').fill(LIGHTS.join('\n'));
  await expect(page.getByTestId('template-count')).toHaveText('24 prompts');
  await page.getByTestId('template-add').click();
  // Two images a row: the first row's count, filled down the column.
  const images = (n: number) => page.getByRole('textbox', { name: `Row ${n} Images` });
  await images(1).click();
  await page.keyboard.type(String(PER_ROW));
  await page.keyboard.press('Enter');
  await images(1).click();
  await images(24).click({ modifiers: ['Shift'] });
  await page.keyboard.press('Control+d');
  await expect(images(24)).toHaveValue(String(PER_ROW));
  await page.getByTestId(`run-model-${SECOND}`).check();
  await expect(page.getByTestId('run-total')).toContainText('2 batches · 96 images');
  await page.getByTestId('submit-batch').click();
  await page.getByTestId('confirm-dialog').getByTestId('confirm-accept').click();
  await expect(page.getByTestId('submit-result')).toContainText('2 batches created, one per model');
  const made = (await studio.call('batches.list')) as { id: string }[];
  for (const b of made)
    await expect
      .poll(async () => (await studio.call('batches.get', { id: b.id })).download.state, { timeout: 120_000 })
      .toBe('done');

  // Culled by the keyboard: candlelight rejected, then every image on marble picked.
  await nav(page, 'Library').click();
  await expect(page.getByTestId('library-count')).toContainText('96 of 96 images');
  await cullBySearch(page, 'candlelight', 'x', 48);
  await cullBySearch(page, 'marble', 'p', 32);
  await page.getByTestId('library-search').fill('');
  await expect(page.getByTestId('library-count')).toContainText('96 of 96 images');

  // What the disk holds, counted by surface and by light.
  const disk = await imagesOnDisk(studio);
  expect(disk).toHaveLength(96);
  const tally = (word: string) => {
    const of = disk.filter((i) => i.prompt.includes(word));
    const count = (mark: string | null) => of.filter((i) => i.mark === mark).length;
    return { images: of.length, picked: count('picked'), rejected: count('rejected'), unrated: count(null) };
  };
  expect(tally('marble')).toEqual({ images: 32, picked: 32, rejected: 0, unrated: 0 });
  expect(tally('candlelight')).toEqual({ images: 48, picked: 16, rejected: 32, unrated: 0 });

  // Opened by its key, from the gallery.
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('w');
  const view = page.getByTestId('what-worked-view');
  await expect(view).toBeVisible();
  const rows = view.getByTestId('what-worked-row');
  await view.getByTestId('what-worked-by-surface').check();
  await view
    .getByTestId('what-worked-by-subject')
    .uncheck()
    .catch(() => undefined);
  for (const name of ['subject', 'light', 'model'])
    if (await view.getByTestId(`what-worked-by-${name}`).isChecked())
      await view.getByTestId(`what-worked-by-${name}`).uncheck();
  await expect(rows).toHaveCount(3);
  await expect(view.getByTestId('what-worked-scope')).toContainText('96 images');
  // Marble first, with its counts as the disk has them and an honest interval.
  const first = rows.nth(0);
  await expect(first).toContainText('marble');
  await expect(first.getByTestId('what-worked-images')).toHaveText('32');
  await expect(first.getByTestId('what-worked-picked')).toHaveText('32 of 32 · 89–100 %');
  for (const [i, surface] of [
    [1, 'oak'],
    [2, 'linen'],
  ] as const) {
    const row = rows.filter({ hasText: surface });
    const t = tally(surface);
    await expect(row.getByTestId('what-worked-images')).toHaveText(String(t.images));
    await expect(row.getByTestId('what-worked-picked')).toContainText(`${t.picked} of ${t.images}`);
    await expect(row.getByTestId('what-worked-rejected')).toContainText(String(t.rejected));
    await expect(row.getByTestId('what-worked-unrated')).toHaveText(String(t.unrated));
    expect(i).toBeGreaterThan(0);
  }

  // By light: candlelight's rejects counted exactly.
  await view.getByTestId('what-worked-by-light').check();
  await view.getByTestId('what-worked-by-surface').uncheck();
  await expect(rows).toHaveCount(2);
  const candle = rows.filter({ hasText: 'candlelight' });
  await expect(candle.getByTestId('what-worked-picked')).toContainText('16 of 48');
  await expect(candle.getByTestId('what-worked-rejected')).toHaveText('32 · 67 %');

  // Which model won for which subject: two at once, one row per pair.
  await view.getByTestId('what-worked-by-subject').check();
  await view.getByTestId('what-worked-by-light').uncheck();
  await view.getByTestId('what-worked-by-model').check();
  await expect(rows).toHaveCount(8);
  await expect(rows.filter({ hasText: FIRST })).toHaveCount(4);
  await expect(rows.filter({ hasText: SECOND })).toHaveCount(4);
  await screenshot(page, 'what-worked-by-subject-model-en');

  // Back to surface; the table and chart at 1280×800, every row on screen.
  await view.getByTestId('what-worked-by-surface').check();
  await view.getByTestId('what-worked-by-subject').uncheck();
  await view.getByTestId('what-worked-by-model').uncheck();
  await expect(rows).toHaveCount(3);
  await expect(view.getByTestId('what-worked-chart')).toBeVisible();
  await screenshot(page, 'what-worked-en');
  await page
    .getByTestId('language-select')
    .selectOption('zh-CN')
    .catch(() => undefined);

  // Tab reaches the table; the arrows move; Enter opens the first row's images in the Library.
  await first.focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(first).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(view).toHaveCount(0);
  await expect(page.getByTestId('library-count')).toContainText('32 of 96 images');
  const shownIds = await page
    .getByTestId('library-cell')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-mark')));
  expect(shownIds.length).toBeGreaterThan(0);
  expect(shownIds.every((m) => m === 'picked')).toBe(true);
  // Exactly marble's images: the Library's list of them is the disk's.
  const listed = (await studio.call('library.query', {
    parts: { surface: 'marble' },
    limit: 200,
  })) as { total: number; items: { prompt: string; mark: string | null }[] };
  expect(listed.total).toBe(32);
  expect(listed.items.every((i) => i.prompt.includes('marble') && i.mark === 'picked')).toBe(true);

  // Opened again: the table it came from, marble still ticked as the winner.
  await page.getByTestId('what-worked-open').click();
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0).getByTestId('what-worked-choose')).toBeChecked();
  await view.getByTestId('what-worked-new-draft').click();
  const dialog = page.getByTestId('what-worked-draft-dialog');
  await expect(dialog.getByTestId('what-worked-winners')).toHaveText('marble');
  await dialog.getByTestId('what-worked-mode-cross').check();
  await dialog.getByTestId('what-worked-per-row').fill('3');
  await dialog.getByTestId('what-worked-draft-create').click();

  // The draft opens in Compose, nothing sent: marble with every subject and light, three images each.
  await expect(page.getByTestId('new-row')).toBeVisible();
  await expect(page.getByTestId('totals-bar')).toContainText('8 rows');
  const prompts = await page
    .getByRole('textbox', { name: /^Row \d+ Prompt$/ })
    .evaluateAll((cells) => cells.map((c) => (c as HTMLTextAreaElement).value));
  const expected = SUBJECTS.flatMap((s) => LIGHTS.map((l) => `A ${s} on marble, ${l}`));
  expect(prompts.sort()).toEqual(expected.sort());
  for (let n = 1; n <= 8; n++) await expect(images(n)).toHaveValue('3');
  expect((await studio.call('batches.list')) as unknown[]).toHaveLength(2);
});
