import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  batchInLibrary,
  expect,
  expectNoSeriousA11yIssues,
  openStudio,
  sandboxState,
  screenshot,
  test,
  type RunningStudio,
} from './studio-fixture';

async function gotoLibrary(page: Page, studio: RunningStudio): Promise<void> {
  await openStudio(page, studio);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: /^(Library|图库)$/ })
    .click();
}

const sha32 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

/** What the sandbox gateway says each batch's tasks received as references. */
async function referenceHashes(studio: RunningStudio): Promise<Record<string, Record<string, string[]>>> {
  return (await sandboxState(studio)).referenceHashes;
}

test('an image used as a reference reaches the gateway byte for byte, and its lineage shows', async ({
  page,
  studio,
}) => {
  await batchInLibrary(studio, 'orig', 'Originals', ['A ceramic mug on linen']);
  const { items } = await studio.call('library.query', {});
  const original = items[0] as { id: string; batchId: string };
  const originalBytes = readFileSync((await studio.call('library.detail', { id: original.id })).path);

  await gotoLibrary(page, studio);
  await page.getByTestId('library-cell').first().click();
  await page.getByTestId('library-more').click();
  await page.getByTestId('library-use-reference').click();
  const target = page.getByTestId('reference-target');
  await expect(target.getByLabel('Add it to')).toHaveValue('shared');
  await target.getByTestId('reference-target-add').click();

  // Compose, with the image among the shared references.
  await expect(page.locator('.shared-refs .ref-thumb img')).toHaveCount(1);
  await page.getByTestId('model-select').selectOption('imgvendor-3.1-flash-image');
  // The first key makes the row and moves to its prompt cell, where the prompt is written.
  await page.getByTestId('new-row').press('T');
  await page.locator(':focus').fill('The same mug, in blue');
  await expect(page.getByText('1 row', { exact: true })).toBeVisible();
  await page.getByTestId('task-name').fill('Variations');
  await page.getByTestId('submit-batch').click();
  await expect(page.getByTestId('submit-result')).toContainText(/estimate/);

  let sent: Record<string, string[]> | undefined;
  await expect
    .poll(async () => {
      const all = await referenceHashes(studio);
      const id = Object.keys(all).find((b) => b !== original.batchId);
      sent = id ? all[id] : undefined;
      return id;
    })
    .toBeTruthy();
  // What the gateway received is the library file itself, not a re-encoded copy.
  expect(Object.values(sent!).flat()).toEqual([sha32(originalBytes)]);

  // Once the new batch is in the library, the original's lightbox shows what it was used in.
  const newBatch = Object.keys(await referenceHashes(studio)).find((b) => b !== original.batchId)!;
  await expect
    .poll(async () => (await studio.call('batches.get', { id: newBatch })).download.state, {
      timeout: 60_000,
    })
    .toBe('done');
  // Once the catalog has it, coming back to the Library never shows the list as it was left: every
  // count it shows from the click on says 2 images (the page records each one it draws).
  await expect.poll(async () => (await studio.call('library.query', {})).total).toBe(2);
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { countsSeen: string[] }).countsSeen = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="library-count"]')?.textContent;
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Library' })
    .click();
  await expect(page.getByTestId('library-cell')).toHaveCount(2);
  await expect(page.getByTestId('library-count')).toContainText('2 of 2 images');
  const counts = await page.evaluate(() => (window as unknown as { countsSeen: string[] }).countsSeen);
  expect(counts.filter((c) => !c.startsWith('2 of 2 images'))).toEqual([]);
  await page.locator(`[data-testid="library-cell"][data-id="${original.id}"]`).dblclick();
  const usedIn = page.getByTestId('lineage-descendants');
  await expect(usedIn.getByRole('button')).toHaveCount(1);
  const madeId = (await usedIn.getByRole('button').getAttribute('data-id'))!;
  await usedIn.getByRole('button').click();
  // The made image opens, and says what it was made from.
  await expect(page.getByTestId('lightbox-prompt').last()).toHaveText('The same mug, in blue');
  await expect(page.getByTestId('lineage-ancestors').last().getByRole('button')).toHaveAttribute(
    'data-id',
    original.id,
  );

  // Vary: Realtime, with the image as an edit input that main reads from the library.
  await page.keyboard.press('Escape');
  await page.getByTestId('lightbox').getByRole('button', { name: 'Vary' }).click();
  await expect(page.getByTestId('rt-varying').locator('img')).toBeVisible();
  await page.getByTestId('rt-prompt').fill('Make it teal');
  await page.getByTestId('rt-generate').click();
  await expect(page.getByTestId('rt-job').first()).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  const jobs = (await studio.call('realtime.jobs')) as { sourceImageIds?: string[]; inputs: number }[];
  expect(jobs[0]).toMatchObject({ sourceImageIds: [original.id], inputs: 1 });

  // Regenerate the made image: a new Compose draft with its prompt, model and reference.
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Library' })
    .click();
  await page.locator(`[data-testid="library-cell"][data-id="${madeId}"]`).dblclick();
  await page.getByTestId('lightbox-regenerate').click();
  await expect(page.getByRole('textbox', { name: 'Row 1 Prompt' })).toHaveValue('The same mug, in blue');
  await expect(page.getByTestId('model-select')).toHaveValue('imgvendor-3.1-flash-image');
  await expect(page.locator('.ref-thumb img')).toHaveCount(1);
});

test('boards: made, filled by drag and by keyboard, and kept when the library folder is copied', async ({
  page,
  studio,
}) => {
  await batchInLibrary(studio, 'brd', 'Board picks', [
    'Lavender sprig beside a ceramic mug',
    '一只青花瓷杯放在木桌上',
    'Glazed vase on linen',
  ]);
  await gotoLibrary(page, studio);
  const cells = page.getByTestId('library-cell');
  await expect(cells).toHaveCount(3);

  await page.getByTestId('board-create').click();
  await page.getByTestId('confirm-dialog').getByRole('textbox').fill('Client review');
  await page.getByTestId('confirm-accept').click();
  const board = page.getByTestId('board').filter({ hasText: 'Client review' });
  await expect(board.getByTestId('board-count')).toHaveText('0');

  // Two selected cells dragged onto the board.
  await cells.nth(0).click();
  await cells.nth(1).click({ modifiers: ['Control'] });
  await cells.nth(1).dragTo(board);
  await expect(board.getByTestId('board-count')).toHaveText('2');
  await expect(page.getByTestId('library-message')).toContainText('Added 2 images to “Client review”');

  // The third by keyboard: B opens "Add to board", Enter on the first board.
  await cells.nth(2).click();
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('b');
  const menu = page.getByTestId('board-menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('button', { name: /Client review/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(board.getByTestId('board-count')).toHaveText('3');

  // Filtered by the board, one taken off it from the toolbar's menu.
  await board.getByTestId('board-open').click();
  await expect(page.getByTestId('library-count')).toContainText('3 of 3');
  await cells.first().click();
  await page.getByTestId('library-add-board').click();
  await page.getByTestId('board-remove-images').click();
  await expect(board.getByTestId('board-count')).toHaveText('2');
  await expect(page.getByTestId('library-count')).toContainText('2 of 3');
  await page.getByRole('button', { name: 'All images' }).click();
  await expect(page.getByTestId('library-count')).toContainText('3 of 3');

  await screenshot(page, 'library-boards-en');
  await expectNoSeriousA11yIssues(page);
  await page.getByTestId('language-select').selectOption('zh-CN');
  await expect(page.getByRole('button', { name: '全部图片' })).toBeVisible();
  await screenshot(page, 'library-boards-zh-CN');
  await page.getByTestId('language-select').selectOption('en');

  // A copy of the library folder, chosen in Settings, has the board and its images.
  const { root } = await studio.call('library.overview');
  const copy = join(mkdtempSync(join(tmpdir(), 'library-copy-')), 'library');
  cpSync(root, copy, { recursive: true });
  // The board is this person's board changes, in the library: a copy takes it along.
  const { personId } = (await studio.call('settings.get')) as { personId: string };
  expect(existsSync(join(copy, '.studio', 'boards', `${personId}.json`))).toBe(true);
  await studio.call('settings.update', { libraryDir: copy });
  await expect
    .poll(async () => (await studio.call('library.overview')).collections)
    .toEqual([expect.objectContaining({ name: 'Client review', images: 2 })]);
  await page.reload();
  await expect(
    page.getByTestId('board').filter({ hasText: 'Client review' }).getByTestId('board-count'),
  ).toHaveText('2');
  await page.getByTestId('board').filter({ hasText: 'Client review' }).getByTestId('board-open').click();
  await expect(page.getByTestId('library-count')).toContainText('2 of 3');
});

test('a contact sheet of English and Chinese prompts, downloaded in browser mode', async ({
  page,
  studio,
}) => {
  const english = 'Lavender sprig beside a ceramic mug';
  const chinese = '一只青花瓷杯放在木桌上';
  await batchInLibrary(studio, 'sheet', 'Sheet batch', [english, chinese, 'Glazed vase on linen']);
  await gotoLibrary(page, studio);
  await expect(page.getByTestId('library-cell')).toHaveCount(3);
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('Control+a');
  await expect(page.getByTestId('library-count')).toContainText('3 selected');

  await page.getByTestId('library-more').click();
  await page.getByTestId('library-sheet').click();
  const dialog = page.getByTestId('contact-sheet-dialog');
  await expect(dialog).toContainText('3 images');
  await dialog.getByLabel('Title').fill('Client review');
  await dialog.getByLabel('Page size').selectOption('A4');
  await dialog.getByLabel('Orientation').selectOption('landscape');
  await dialog.getByLabel('Images per page').selectOption('6');
  await screenshot(page, 'contact-sheet-en');
  await expectNoSeriousA11yIssues(page);

  const download = page.waitForEvent('download');
  await dialog.getByTestId('sheet-export').click();
  const file = join(mkdtempSync(join(tmpdir(), 'sheet-')), 'sheet.pdf');
  await (await download).saveAs(file);
  await expect(page.getByTestId('library-message')).toContainText('Contact sheet of 3 images');
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString('utf8');
  expect(text).toContain('Client review');
  expect(text).toContain(english);
  // pdftotext may break a line of CJK anywhere; the characters are there, in order.
  expect(text.replace(/\s+/g, '')).toContain(chinese);

  await page.getByTestId('language-select').selectOption('zh-CN');
  await page.getByTestId('library-more').click();
  await page.getByTestId('library-sheet').click();
  await expect(page.getByTestId('contact-sheet-dialog')).toContainText('每页图片数');
  await screenshot(page, 'contact-sheet-zh-CN');
  await page.keyboard.press('Escape');
  await page.getByTestId('language-select').selectOption('en');
});

test('a batch preview and a realtime result are used as references too, from where they are shown', async ({
  page,
  studio,
}) => {
  await batchInLibrary(studio, 'prev', 'Previews', ['A glazed vase on oak']);
  const [batch] = (await studio.call('batches.list')) as { id: string }[];
  await openStudio(page, studio);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });

  // From the batch's page: the item's preview, into one row of Compose's draft.
  await nav.getByRole('link', { name: 'Batches' }).click();
  await page.getByTestId(`batch-${batch!.id}`).getByRole('link', { name: 'Previews' }).click();
  await expect(page.getByTestId('preview-prev-01')).toBeVisible();
  await page.getByTestId('preview-reuse-prev-01').click();
  await page.getByTestId('reference-target').getByTestId('reference-target-add').click();
  await expect(page.locator('.shared-refs .ref-thumb img')).toHaveCount(1);

  // From a realtime result, on the Realtime screen.
  await nav.getByRole('link', { name: 'Realtime' }).click();
  await page.getByTestId('rt-prompt').fill('A teal vase, studio light');
  await page.getByTestId('rt-generate').click();
  const job = page.getByTestId('rt-job').first();
  await expect(job).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await job.getByTestId('rt-use-as-reference').click();
  await page.getByTestId('reference-target').getByTestId('reference-target-add').click();
  await expect(page.locator('.shared-refs .ref-thumb img')).toHaveCount(2);
});
