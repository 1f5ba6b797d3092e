import {
  batchInLibrary,
  expect,
  expectNoSeriousA11yIssues,
  screenshotBothThemes,
  test,
  openScreen,
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
  await openScreen(page, studio, 'Library');
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
  await page.getByTestId('library-more').click();
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

test('every row over the limit says why, all rows are listed, and a refused upload says so', async ({
  page,
  studio,
}) => {
  await openScreen(page, studio, 'Knowledge base');
  await page.getByRole('button', { name: 'Paste' }).click();
  const longAnswer = 'Cold-press paper grain shows through every wash. '.repeat(350).trim();
  const lines = Array.from({ length: 40 }, (_, i) =>
    i === 30 ? `How do we paint paper grain?\t${longAnswer}` : `Style rule ${i}?\tAnswer ${i}.`,
  );
  lines.push('\tan answer without its question');
  await page.getByLabel('One row per line: question, a Tab, then the answer.').fill(lines.join('\n'));
  await page.getByTestId('kb-id').focus();
  await expect(page.getByTestId('kb-preview-count')).toContainText(
    '39 of 41 rows will be uploaded · 1 over the token limit · 1 without a question',
  );

  // Every row is there, not only the first 20: the last one is reached by scrolling.
  const preview = page.getByTestId('kb-preview');
  await preview.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(preview).toContainText('an answer without its question');

  // The row whose answer is long says so in words, with its split.
  await page.getByTestId('kb-only-flagged').check();
  await expect(page.getByTestId('kb-row')).toHaveCount(2);
  const flagged = page.getByTestId('kb-row').filter({ hasText: 'How do we paint paper grain?' });
  await expect(flagged.getByTestId('kb-row-problem')).toContainText(
    /the answer is too long\. Split it into \d+ rows with the same question/,
  );
  await flagged.getByRole('button', { name: 'Split' }).click();
  await expect(page.getByTestId('kb-preview-count')).toContainText('0 over the token limit');
  await expect(page.getByTestId('kb-row')).toHaveCount(1);
  await expect(page.getByTestId('kb-row').getByTestId('kb-row-problem')).toHaveText(
    /No question: this row is left out\./,
  );

  // A wrong knowledge-base key: the upload is refused as a whole, and the top bar shows it.
  const [sandbox] = await studio.call('profiles.list');
  await studio.call('profiles.save', {
    id: sandbox.id,
    name: sandbox.name,
    baseUrl: sandbox.baseUrl,
    defaultKbId: 'kb-docs',
    defaultAppId: 'app-sandbox',
    kbKey: 'kb-wrong',
  });
  await page.getByTestId('kb-upload').click();
  const push = page.getByTestId('kb-push').first();
  await expect(push).toHaveAttribute('data-state', 'refused');
  await expect(push).toContainText('Refused by the knowledge base');
  await expect(push).not.toContainText('Some chunks failed');
  await expect(push.getByRole('alert')).toHaveAttribute('data-error-code', 'unAuthApiKey');
  await expect(push.getByTestId('kb-refused-help')).toContainText('Check the knowledge-base key in Settings');
  const indicator = page.getByTestId('connection-indicator');
  await expect(indicator).toHaveAttribute('data-kb-state', 'error');
  await expect(indicator).toContainText('knowledge-base key refused');
  await indicator.getByTestId('connection-details').click();
  await expect(indicator.getByRole('alert')).toContainText('The knowledge-base API key is not valid.');
  await expectNoSeriousA11yIssues(page);
});
