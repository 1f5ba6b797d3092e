import { expect, expectNoSeriousA11yIssues, screenshotBothThemes, test, openScreen } from './studio-fixture';

test('generate, edit twice in a chain, save to the library, and find the three images there', async ({
  page,
  studio,
}) => {
  await openScreen(page, studio, 'Realtime');
  await expect(page.getByTestId('rt-model')).toHaveValue('imgvendor-3.1-flash-image');
  // Pro models are not offered the Flash-only ratios.
  await page.getByTestId('rt-model').selectOption('imgvendor-3-pro-image');
  await expect(page.getByTestId('rt-ratio').locator('option', { hasText: '8:1' })).toHaveCount(0);
  await page.getByTestId('rt-model').selectOption('imgvendor-3.1-flash-image');
  await expect(page.getByTestId('rt-ratio').locator('option', { hasText: '8:1' })).toHaveCount(1);
  await page.getByTestId('rt-ratio').selectOption('4:3');
  // Adding input images is one control, not a button and a file input announced beside it.
  await expect(page.getByRole('button', { name: /Add input images/ })).toHaveCount(1);

  const steps = [
    'A ceramic teapot on a linen cloth',
    'Make the teapot celadon green, keep the cloth',
    '在壶旁边加一只茶杯，其余不变',
  ];
  for (const [i, step] of steps.entries()) {
    await page.getByTestId('rt-prompt').fill(step);
    await page.getByTestId('rt-generate').click();
    const job = page.getByTestId('rt-job').first();
    await expect(job).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(job).toContainText(step);
    await expect(job.getByTestId(/^rt-image-/)).toBeVisible();
    await expect
      .poll(() => job.getByTestId(/^rt-image-/).evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    if (i > 0) {
      // An edit shows what it was made from: the earlier result and its prompt.
      await expect(job.getByTestId('rt-source')).toContainText(`Edit of: ${steps[i - 1]}`);
      await expect(job.getByTestId('rt-source-image')).toBeVisible();
      await expect(job.getByTestId('rt-source-image')).toHaveAttribute(
        'alt',
        `Source image: the result of ${steps[i - 1]}`,
      );
    }
    await job.getByTestId('rt-save').click();
    await expect(job.getByTestId('rt-save')).toHaveText('In the library');
    if (i < steps.length - 1) {
      await job.getByTestId('rt-edit-this').click();
      await expect(page.getByTestId('rt-editing')).toContainText(step);
    }
  }
  const jobs = await studio.call('realtime.jobs');
  expect(jobs).toHaveLength(3);
  const [third, second, first] = jobs;
  expect(second.parentJobId).toBe(first.id);
  expect(third.parentJobId).toBe(second.id);
  expect(third.inputs).toBe(1);

  await screenshotBothThemes(page, 'realtime');
  await expectNoSeriousA11yIssues(page);

  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Library' })
    .click();
  await expect(page.getByTestId('library-count')).toContainText('3 of 3');
  for (const step of steps)
    await expect(page.getByTestId('library-cell').filter({ hasText: step })).toHaveCount(1);
});

test('a content-policy refusal says so first, with the code and request id', async ({ page, studio }) => {
  await openScreen(page, studio, 'Realtime');
  await expect(page.getByTestId('rt-model')).toHaveValue('imgvendor-3.1-flash-image');
  await page.getByTestId('rt-prompt').fill('A fox in the snow [blocked]');
  await page.getByTestId('rt-generate').click();
  const job = page.getByTestId('rt-job').first();
  await expect(job).toHaveAttribute('data-state', 'failed');
  const notice = job.getByRole('alert');
  await expect(notice).toHaveAttribute('data-error-code', 'SAFETY_BLOCKED');
  await expect(notice.locator('.error-explanation')).toHaveText(
    /^Refused under the provider’s content policy/,
  );
  await expect(notice).not.toContainText('refused a parameter');
  await expect(notice).toContainText(/Request id: \S+/);
});
