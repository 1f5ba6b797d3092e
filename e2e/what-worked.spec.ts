import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSheet } from 'read-excel-file/node';
import { soleMarksOnDisk } from '../src-main/test/helpers/marks-on-disk';
import { WHAT_WORKED_MODEL } from '../src-shared/what-worked';
import {
  batchesAtSandbox,
  expectNoSeriousA11yIssues,
  expect,
  gotoCompose,
  screenshot,
  test,
  type RunningStudio,
} from './studio-fixture';

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

/** Every image of the library as the disk holds it: its values (batch.json) and its mark (review/). */
async function imagesOnDisk(studio: RunningStudio) {
  const { libraryDir } = (await studio.call('settings.get')) as { libraryDir: string };
  const batches = (await studio.call('batches.list')) as { id: string }[];
  const images: { id: string; parts: Record<string, string>; mark: string | null }[] = [];
  for (const b of batches) {
    const { download } = (await studio.call('batches.get', { id: b.id })) as { download: { folder: string } };
    const folder = join(libraryDir, download.folder);
    const marks = soleMarksOnDisk(folder);
    const record = JSON.parse(readFileSync(join(folder, 'batch.json'), 'utf8')) as {
      images: { file: string; parts: Record<string, string> }[];
    };
    for (const image of record.images)
      images.push({
        id: `${download.folder}/${image.file}`,
        parts: image.parts,
        mark: marks[image.file]?.mark ?? null,
      });
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
  test.setTimeout(300_000);
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
  for (let i = 1; i < 24; i++) await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Control+d');
  await page.getByTestId(`run-model-${SECOND}`).check();
  await expect(page.getByTestId('run-total')).toContainText('2 batches · 96 images');
  await page.getByTestId('submit-batch').click();
  await page.getByTestId('confirm-dialog').getByTestId('confirm-accept').click();
  await expect(page.getByTestId('submit-result')).toContainText('2 batches created, one per model');
  const made = (await studio.call('batches.list')) as { id: string }[];
  expect(made).toHaveLength(2);
  for (const b of made)
    await expect
      .poll(async () => (await studio.call('batches.get', { id: b.id })).download.state, { timeout: 150_000 })
      .toBe('done');

  // Culled by the keyboard: candlelight rejected, then every image on marble picked.
  await nav(page, 'Library').click();
  await expect(page.getByTestId('library-count')).toContainText('96 of 96 images');
  await cullBySearch(page, 'candlelight', 'x', 48);
  await cullBySearch(page, 'marble', 'p', 32);
  await page.getByTestId('library-search').fill('');
  await expect(page.getByTestId('library-count')).toContainText('96 of 96 images');

  // What the disk holds (batch.json's values, review/<person>.json's marks), counted per value.
  // The marks reach the disk a moment after the screen shows them: waited for, not assumed.
  let disk = await imagesOnDisk(studio);
  const tally = (name: string, value: string) => {
    const of = disk.filter((i) => i.parts[name] === value);
    const count = (mark: string | null) => of.filter((i) => i.mark === mark).length;
    return { images: of.length, picked: count('picked'), rejected: count('rejected'), unrated: count(null) };
  };
  await expect
    .poll(async () => {
      disk = await imagesOnDisk(studio);
      return [tally('surface', 'marble'), tally('light', 'candlelight')];
    })
    .toEqual([
      { images: 32, picked: 32, rejected: 0, unrated: 0 },
      { images: 48, picked: 16, rejected: 32, unrated: 0 },
    ]);
  expect(disk).toHaveLength(96);

  // Opened by its key, from the gallery: by the template's first variable until another is chosen.
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('w');
  const view = page.getByTestId('what-worked-view');
  await expect(view).toBeVisible();
  const rows = view.getByTestId('what-worked-row');
  const by = (name: string) => view.getByTestId(`what-worked-by-${name}`);
  await expect(by('subject')).toBeChecked();
  await expect(rows).toHaveCount(4);
  await by('surface').check();
  await by('subject').uncheck();
  await expect(rows).toHaveCount(3);
  await expect(view.getByTestId('what-worked-scope')).toContainText('96 images');
  // Marble first, with the disk's counts and an honest interval; then the others, exactly.
  const first = rows.nth(0);
  await expect(first).toContainText('marble');
  await expect(first.getByTestId('what-worked-picked')).toHaveText('32 of 32 · 89–100 %');
  for (const surface of SURFACES) {
    const row = rows.filter({ hasText: surface });
    const t = tally('surface', surface);
    await expect(row.getByTestId('what-worked-images')).toHaveText(String(t.images));
    await expect(row.getByTestId('what-worked-picked')).toContainText(`${t.picked} of ${t.images} ·`);
    await expect(row.getByTestId('what-worked-rejected')).toContainText(`${t.rejected} ·`);
    await expect(row.getByTestId('what-worked-unrated')).toHaveText(String(t.unrated));
  }

  // By light: candlelight's rejects counted exactly.
  await by('light').check();
  await by('surface').uncheck();
  await expect(rows).toHaveCount(2);
  const candle = rows.filter({ hasText: 'candlelight' });
  await expect(candle.getByTestId('what-worked-picked')).toContainText('16 of 48 ·');
  await expect(candle.getByTestId('what-worked-rejected')).toHaveText('32 · 67 %');

  // Which model won for which subject: two at once, one row per pair.
  await by('subject').check();
  await by('light').uncheck();
  await by(WHAT_WORKED_MODEL).check();
  await expect(rows).toHaveCount(8);
  await expect(rows.filter({ hasText: FIRST })).toHaveCount(4);
  await expect(rows.filter({ hasText: SECOND })).toHaveCount(4);
  await screenshot(page, 'what-worked-by-subject-model-en');

  // Back to surface: the table and its chart at 1280×800.
  await by('surface').check();
  await by('subject').uncheck();
  await by(WHAT_WORKED_MODEL).uncheck();
  await expect(rows).toHaveCount(3);
  await expect(view.getByTestId('what-worked-chart')).toBeVisible();
  await screenshot(page, 'what-worked-en');
  await expectNoSeriousA11yIssues(page);
  // At 1280×800 the table has room for at least 12 rows (and its header) without scrolling.
  const room = await view.locator('.ww-scroll').evaluate((el) => el.getBoundingClientRect().bottom);
  const top = await first.evaluate((el) => el.getBoundingClientRect());
  expect(Math.min(room, 800) - top.top).toBeGreaterThanOrEqual(12 * top.height);

  // The table as a spreadsheet, downloaded as browser mode delivers exports, read back.
  const xlsx = page.waitForEvent('download');
  await view.getByTestId('what-worked-export-xlsx').click();
  const saved = join(mkdtempSync(join(tmpdir(), 'worked-')), 'table.xlsx');
  await (await xlsx).saveAs(saved);
  const sheet = await readSheet(saved);
  expect(sheet[0]!.slice(0, 3)).toEqual(['surface', 'Images', 'Picked']);
  expect(sheet[1]!.slice(0, 3)).toEqual(['marble', 32, 32]);
  await expect(view.getByTestId('what-worked-message')).toContainText('Table of 3 rows saved');

  // A contact sheet of the picks, the table's top rows at the foot of its first page.
  await view.getByTestId('what-worked-sheet').click();
  const sheetDialog = page.getByTestId('contact-sheet-dialog');
  await expect(sheetDialog).toContainText('32 images');
  const pdf = page.waitForEvent('download');
  await sheetDialog.getByTestId('sheet-export').click();
  const pdfFile = join(saved, '..', 'sheet.pdf');
  await (await pdf).saveAs(pdfFile);
  const text = execFileSync('pdftotext', ['-layout', pdfFile, '-']).toString().replace(/\s+/g, ' ');
  expect(text).toContain('What worked, by surface: marble 32 of 32 picked (89–100 %)');

  // The keyboard: Tab reaches the table's one row in the tab order; the arrows move; Enter opens.
  await by(WHAT_WORKED_MODEL).focus();
  for (let i = 0; i < 20 && !(await first.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(first).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(view).toHaveCount(0);

  // Exactly marble's images: the gallery's cells are the disk's marble images, every one picked.
  await expect(page.getByTestId('library-count')).toContainText('32 of 96 images');
  await page.getByTestId('library-gallery').focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('Control+-');
  const cells = page.getByTestId('library-cell');
  await expect(cells).toHaveCount(32);
  const shown = await cells.evaluateAll((list) => list.map((c) => c.getAttribute('data-id')));
  const marble = disk.filter((i) => i.parts.surface === 'marble').map((i) => i.id);
  expect(new Set(shown)).toEqual(new Set(marble));
  for (let i = 0; i < 4; i++) await page.keyboard.press('Control+=');

  // Opened again over that row: the table it came from, marble ticked as the winner by default.
  await page.getByTestId('what-worked-open').click();
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0).getByTestId('what-worked-choose')).toBeChecked();
  await expect(rows.nth(1).getByTestId('what-worked-choose')).not.toBeChecked();
  await view.getByTestId('what-worked-new-draft').click();
  const dialog = page.getByTestId('what-worked-draft-dialog');
  await expect(dialog.getByTestId('what-worked-winners')).toHaveText('marble');
  await dialog.getByTestId('what-worked-mode-cross').check();
  await dialog.getByTestId('what-worked-per-row').fill('3');
  await dialog.getByTestId('what-worked-draft-create').click();

  // The draft opens in Compose, unsent: marble with every subject and light, three images a row.
  await expect(page.getByTestId('new-row')).toBeVisible();
  await expect(page.getByTestId('totals-bar')).toContainText('8 rows');
  const prompts = await page
    .getByRole('textbox', { name: /^Row \d+ Prompt$/ })
    .evaluateAll((list) => list.map((c) => (c as HTMLTextAreaElement).value));
  const expected = SUBJECTS.flatMap((s) => LIGHTS.map((l) => `A ${s} on marble, ${l}`));
  expect(prompts.sort()).toEqual(expected.sort());
  for (let n = 1; n <= 8; n++) await expect(images(n)).toHaveValue('3');
  expect(await studio.call('batches.list')).toHaveLength(2);
  expect(await batchesAtSandbox(studio)).toBe(2);

  // In Chinese: the view and the next-round dialog.
  await page.getByTestId('language-select').selectOption('zh-CN');
  await nav(page, '图库').click();
  await expect(page.getByTestId('library-count')).toContainText('32');
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('w');
  await expect(rows).toHaveCount(3);
  await expect(first.getByTestId('what-worked-picked')).toHaveText('32 张中选用 32 · 89–100%');
  await expect(view).toContainText('效果分析');
  await screenshot(page, 'what-worked-zh-CN');
  await view.getByTestId('what-worked-new-draft').click();
  await expect(dialog).toContainText('根据效果新建草稿');
  await screenshot(page, 'what-worked-draft-zh-CN');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  await page.getByTestId('language-select').selectOption('en');
});
