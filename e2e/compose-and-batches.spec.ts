import {
  dropFiles,
  expect,
  gotoCompose,
  pngBytes,
  expectNoSeriousA11yIssues,
  pasteText,
  screenshotBothThemes,
  test,
} from './studio-fixture';

test('paste 30 prompts, drop 2 references, submit, watch it complete, preview, download, retry the failures', async ({
  page,
  studio,
}) => {
  await gotoCompose(page, studio);
  const prompts = Array.from({ length: 30 }, (_, i) =>
    i === 4
      ? `Ceramic mug ${i + 1} [fail:SAFETY_BLOCKED]`
      : `Ceramic mug ${i + 1} on linen, 亚麻布上的陶瓷杯 ${i + 1}`,
  );
  await pasteText(page, '[data-testid="new-row"]', prompts.join('\n'));
  await expect(page.getByTestId('totals-images')).toContainText('30 / 200 images');

  await dropFiles(page, '[data-testid="grid-body"]', [
    { name: 'palette.png', type: 'image/png', bytes: await pngBytes('#d94f2b') },
    { name: 'light.png', type: 'image/png', bytes: await pngBytes('#2b6cd9') },
  ]);
  await expect(page.locator('.shared-refs .ref-thumb img')).toHaveCount(2);
  // Loaded by URL from the studio, not inlined as base64.
  await expect
    .poll(() =>
      page
        .locator('.shared-refs .ref-thumb img')
        .first()
        .evaluate((i: HTMLImageElement) => i.naturalWidth),
    )
    .toBeGreaterThan(0);
  expect(await page.locator('.shared-refs .ref-thumb img[src^="data:"]').count()).toBe(0);
  await expect(page.locator('.compose.drop-active')).toHaveCount(0);
  await page.getByTestId('task-name').fill('Mugs on linen');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await screenshotBothThemes(page, 'compose');
  await expectNoSeriousA11yIssues(page);
  // One control for one action: the file input behind the button is not announced beside it.
  await expect(page.getByRole('button', { name: 'Add reference images…', exact: true })).toHaveCount(1);

  await page.getByTestId('submit-batch').click();
  const result = page.getByTestId('submit-result');
  await expect(result).toContainText(/estimate \d+\.\d+, hold \d+\.\d+/);
  await result.getByRole('button', { name: 'View batch' }).click();

  await expect(page.getByTestId('detail-status')).toHaveText('Completed', { timeout: 60_000 });
  await expect(page.getByTestId('detail-download')).toHaveText('In the library', { timeout: 60_000 });
  await expect(page.getByTestId('item-row-001').getByRole('img')).toBeVisible();
  await expect
    .poll(() =>
      page
        .getByTestId('item-row-001')
        .getByRole('img')
        .evaluate((i: HTMLImageElement) => i.naturalWidth),
    )
    .toBeGreaterThan(0);
  expect(await page.getByTestId('item-row-001').getByRole('img').getAttribute('src')).toMatch(
    /^\/images\/batch-preview\//,
  );
  const failed = page.getByTestId('item-row-005');
  await expect(failed).toContainText('SAFETY_BLOCKED');
  await expect(failed).toContainText('Refused under the provider’s content policy');
  await page.getByRole('button', { name: 'Open folder' }).click();
  await expect(page.getByText(/Folder: .*Mugs on linen/)).toBeVisible();

  await page.getByTestId('action-retry').click();
  await expect(page.getByTestId('detail-status')).toHaveText(
    /Queued|Running|Processing results|Settling|Failed/,
  );
  await page.getByRole('button', { name: /All batches/ }).click();
  const child = page.locator('.batch-card.child');
  await expect(child).toHaveCount(1);
  await expect(child).toContainText('Mugs on linen (retry)');
  await expect(page.locator('.family').first().locator('.batch-card')).toHaveCount(2);
  await expect(page.getByTestId('costs')).toContainText('2 batches');
  await screenshotBothThemes(page, 'batches');
  await expectNoSeriousA11yIssues(page);
});

test('import a CSV and a template; a draft over 200 images is offered a split', async ({ page, studio }) => {
  await gotoCompose(page, studio);
  // Escape closes a dialog and gives focus back.
  await page.getByTestId('open-import').click();
  await expect(page.getByRole('dialog', { name: 'Import prompts' })).toBeVisible();
  await expect(page.getByTestId('import-file')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('open-import')).toBeFocused();
  await page.getByTestId('open-import').click();
  const csv = 'custom_id,prompt,output_count\nmug-a,"A mug, glazed",2\nmug-b,一只青花瓷杯,1\n';
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'prompts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('import-preview')).toContainText('A mug, glazed');
  await expect(page.getByTestId('import-preview')).toContainText('一只青花瓷杯');
  await page.getByTestId('import-append').click();
  await expect(page.getByRole('textbox', { name: 'Row 1 custom_id' })).toHaveValue('mug-a');
  await expect(page.getByRole('textbox', { name: 'Row 1 Images' })).toHaveValue('2');
  await expect(page.getByTestId('totals-images')).toContainText('3 / 200 images');

  await page.getByTestId('open-template').click();
  await page.getByTestId('template-input').fill('A {subject} in {style} style');
  await page.getByTestId('template-values-subject').fill('mug\nbowl\nvase');
  await page.getByTestId('template-values-style').fill('ink\noil');
  await expect(page.getByTestId('template-count')).toHaveText('6 prompts');
  await page.getByTestId('template-mode-zip').check();
  await expect(page.getByTestId('template-count')).toHaveText('2 prompts');
  await page.getByTestId('template-mode-cross').check();
  await page.getByTestId('template-add').click();
  await expect(page.getByRole('textbox', { name: 'Row 3 Prompt' })).toHaveValue('A mug in ink style');
  await expect(page.getByTestId('totals-images')).toContainText('9 / 200 images');

  // Undo takes the template back out, redo puts it in again.
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('totals-images')).toContainText('3 / 200 images');
  await page.keyboard.press('Control+Shift+z');
  await expect(page.getByTestId('totals-images')).toContainText('9 / 200 images');

  const big = [
    'custom_id,prompt,output_count',
    ...Array.from({ length: 100 }, (_, i) => `big-${i},Big prompt ${i},2`),
  ].join('\n');
  await page.getByTestId('open-import').click();
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(big) });
  await page.getByTestId('import-append').click();
  await expect(page.getByTestId('totals-images')).toContainText('209 / 200 images');
  await expect(page.getByTestId('submit-batch')).toBeDisabled();
  const offer = page.getByTestId('split-offer');
  await expect(offer).toContainText('Split it into 2 batches?');
  await offer.getByRole('button', { name: 'Split into 2 drafts' }).click();
  await expect(page.getByText('Split into 2 drafts. They are listed under Drafts.')).toBeVisible();
  await expect(page.getByTestId('submit-batch')).toBeEnabled();
  await page.getByRole('button', { name: 'Drafts' }).click();
  await expect(page.locator('.drafts-menu li')).toHaveCount(2);
});

test('the grid works by keyboard and survives a reload', async ({ page, studio }) => {
  await gotoCompose(page, studio);
  await pasteText(page, '[data-testid="new-row"]', 'first\nsecond\nthird');
  const second = page.getByRole('textbox', { name: 'Row 2 Prompt' });
  await second.focus();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('textbox', { name: 'Row 1 Prompt' })).toBeFocused();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page.getByRole('textbox', { name: 'Row 2 Prompt' })).toHaveValue('first');
  // Ctrl+D is fill-down, as in Sheets (compose-grid.spec); Ctrl+Shift+D duplicates the row.
  await page.keyboard.press('Control+Shift+d');
  await expect(page.getByRole('textbox', { name: 'Row 3 Prompt' })).toHaveValue('first');
  await page.keyboard.press('Control+Enter');
  await page.keyboard.type('typed by keyboard');
  await expect(page.getByRole('textbox', { name: 'Row 4 Prompt' })).toHaveValue('typed by keyboard');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Row 4 Prompt' })).toHaveValue('typed by keyboard');
  await expect(page.getByRole('textbox', { name: 'Row 1 Prompt' })).toHaveValue('second');
});

test.describe('with a slower gateway', () => {
  test.use({ sandboxTimeScale: 15 });

  test('cancel a running batch', async ({ page, studio }) => {
    await gotoCompose(page, studio);
    await pasteText(page, '[data-testid="new-row"]', 'to cancel one\nto cancel two');
    await page.getByTestId('task-name').fill('Cancel me');
    await page.getByTestId('submit-batch').click();
    await page.getByTestId('submit-result').getByRole('button', { name: 'View batch' }).click();
    await expect(page.getByTestId('detail-status')).toHaveText(/Queued|Running/);
    // Cancel asks first, naming the hold it gives back.
    await page.getByTestId('action-cancel').click();
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'OK' }).click();
    await expect(page.getByTestId('detail-status')).toHaveText('Cancelled', { timeout: 30_000 });
    await page.getByRole('button', { name: /All batches/ }).click();
    await page.getByTestId('filter-status').selectOption('cancelled');
    await expect(page.locator('.batch-card')).toHaveCount(1);
  });
});
