import {
  batchInLibrary,
  expect,
  expectNoSeriousA11yIssues,
  openStudio,
  screenshotBothThemes,
  test,
} from './studio-fixture';

const PROMPTS = [
  'Celadon teapot on raw linen, morning light',
  '青瓷茶壶放在亚麻布上，晨光',
  'Walnut tray with three cups, top view',
  'Matte black kettle on slate',
  'Glass jar of oolong tea leaves',
  '竹制茶盘与两只茶杯',
];

test('push the picks of a reviewed batch into the knowledge base and find them with the search tester', async ({
  page,
  studio,
}) => {
  await batchInLibrary(studio, 'tea', 'Tea set', PROMPTS);
  await openStudio(page, studio);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Library' })
    .click();
  await page.getByTestId('library-search').fill('teapot');
  await expect(page.getByTestId('library-count')).toContainText('1 of 6');
  await page.getByTestId('library-search').fill('');
  await expect(page.getByTestId('library-count')).toContainText('6 of 6');
  // Review: pick the first two, reject the third, give the picks stars.
  await page.getByTestId('library-gallery').focus();
  for (const key of ['p', '5', 'ArrowRight', 'p', '4', 'ArrowRight', 'x']) await page.keyboard.press(key);
  await page.getByTestId('library-review').selectOption('picked');
  await expect(page.getByTestId('library-count')).toContainText('2 of 6');
  const picked = await page.getByTestId('library-cell').allTextContents();
  await page.getByTestId('library-gallery').focus();
  await page.keyboard.press('Control+a');
  await page.getByTestId('library-push-kb').click();
  await expect(page.getByTestId('library-message')).toContainText('Uploading 2 prompts');

  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Knowledge base' })
    .click();
  await expect(page.getByTestId('kb-push').first()).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('kb-push').first()).toContainText('2 inserted');

  const pickedPrompt = PROMPTS.find((p) => picked.some((text) => text.includes(p)))!;
  await page.getByTestId('kb-query').fill(pickedPrompt);
  await page.getByTestId('kb-search').click();
  const hits = page.getByTestId('kb-hit');
  await expect(hits.first()).toContainText(pickedPrompt);
  await expect(hits.first()).toContainText(/Picked in review\. Rating: \d\/5\. Batch: Tea set/);
  await expect(page.getByTestId('kb-result')).toContainText('Knowledge base:');

  // A rejected image's prompt is not in the knowledge base.
  const rejected = PROMPTS.find((p) => !picked.some((text) => text.includes(p)))!;
  await page.getByTestId('kb-query').fill(rejected);
  await page.getByTestId('kb-similarity').fill('0.95');
  await page.getByTestId('kb-search').click();
  await expect(page.getByText('Nothing above the similarity threshold.')).toBeVisible();

  await screenshotBothThemes(page, 'kb');
  await expectNoSeriousA11yIssues(page);

  // Compose can pull a hit into its rows.
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Compose' })
    .click();
  await page.getByTestId('new-row').fill('A teacup');
  await page.getByText('Insert from the knowledge base').click();
  await page.getByTestId('kb-insert-query').fill(pickedPrompt);
  await page.getByTestId('kb-insert-query').press('Enter');
  await page.getByRole('button', { name: 'Append to every row' }).first().click();
  await expect(page.getByRole('textbox', { name: 'Row 1 Prompt' })).toHaveValue(
    /^A teacup, Picked in review/,
  );
});
