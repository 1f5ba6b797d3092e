import type { Page } from '@playwright/test';
import {
  expect,
  expectNoSeriousA11yIssues,
  gotoCompose,
  pasteText,
  screenshot,
  test,
  type RunningStudio,
} from './studio-fixture';

interface Batch {
  id: string;
  itemCount: number;
  estimatedCost: number;
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: /Main navigation|主导航/ }).getByRole('link', { name });

/** Adds rows to the draft in Compose, as pasting lines does. */
async function addRows(page: Page, prompts: string[]): Promise<void> {
  await nav(page, 'Compose').click();
  await pasteText(page, '[data-testid="new-row"]', prompts.join('\n'));
}

async function batches(studio: RunningStudio): Promise<Batch[]> {
  return (await studio.call('batches.list')) as Batch[];
}

test('a submit that would cross the monthly budget asks first; one that would not does not', async ({
  page,
  studio,
}) => {
  // The first batch of the model, with no budget set: sent at once, and it gives the per-image estimate.
  await gotoCompose(page, studio);
  await page.getByTestId('task-name').fill('Mugs');
  await addRows(page, ['A blue mug', 'A red mug']);
  await page.getByTestId('submit-batch').click();
  await expect(page.getByTestId('submit-result')).toBeVisible();
  const [first] = await batches(studio);
  const perImage = first!.estimatedCost / first!.itemCount;
  expect(perImage).toBeGreaterThan(0);
  await expect(page.getByTestId('budget-meter')).toHaveCount(0);

  // In per-image estimates (e): a budget of 9e. A batch counts its hold (1.2e an image, since the
  // sandbox holds 0.6 of the price and estimates 0.5) until it settles at 1e an image.
  const budget = Math.round(perImage * 9 * 1e4) / 1e4;
  await nav(page, 'Settings').click();
  await page.getByTestId('profile-sandbox').getByRole('button', { name: 'Edit' }).click();
  await page.getByTestId('profile-monthlyBudget').fill(String(budget));
  await page.getByTestId('profile-save').click();
  const meter = page.getByTestId('budget-meter');
  await expect(meter).toContainText('This month');
  await expect(meter).toContainText(
    new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(budget),
  );

  // Two more rows make a draft of four images: at most 2.4e + 4e, within the budget, so no question.
  await addRows(page, ['A green mug', 'A yellow mug']);
  await page.getByTestId('submit-batch').click();
  await expect(page.getByTestId('submit-result')).toBeVisible();
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  expect(await batches(studio)).toHaveLength(2);

  // Six more make ten images: at least 6e + 10e, past the budget. The warning comes before anything is sent.
  await addRows(page, ['A cup', 'A saucer', 'A bowl', 'A plate', 'A jug', 'A vase']);
  const dialog = page.getByTestId('confirm-dialog');
  await page.getByTestId('submit-batch').click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('confirm-message')).toContainText('past the monthly budget');
  await screenshot(page, 'budget-warning-en');
  await dialog.getByTestId('confirm-dismiss').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('submit-result')).toHaveCount(0);
  expect(await batches(studio)).toHaveLength(2);

  await page.getByTestId('language-select').selectOption('zh-CN');
  // Clicked once the screen reads Chinese, as a person would: the question is worded at the click.
  await expect(page.getByTestId('submit-batch')).toContainText('提交');
  await page.getByTestId('submit-batch').click();
  await expect(dialog.getByTestId('confirm-message')).toContainText('超出每月预算');
  await expect(page.getByTestId('budget-meter')).toContainText('本月');
  await screenshot(page, 'budget-warning-zh-CN');
  await dialog.getByTestId('confirm-dismiss').click();
  await page.getByTestId('language-select').selectOption('en');
  expect(await batches(studio)).toHaveLength(2);

  // The second click sends it.
  await page.getByTestId('submit-batch').click();
  await dialog.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('submit-result')).toBeVisible();
  expect(await batches(studio)).toHaveLength(3);
  await expect(page.getByTestId('budget-meter')).toHaveAttribute('data-level', 'over');
});

test('Batches shows spending per day, in words and in a chart, in both languages', async ({
  page,
  studio,
}) => {
  await gotoCompose(page, studio);
  await page.getByTestId('task-name').fill('Teapots');
  await addRows(page, ['A teapot on slate', 'A teapot on oak', 'A teapot on linen']);
  await page.getByTestId('submit-batch').click();
  await expect(page.getByTestId('submit-result')).toBeVisible();
  const [batch] = await batches(studio);
  // Settled, so the chart shows the actual cost beside the estimate.
  await expect
    .poll(
      async () =>
        ((await studio.call('batches.get', { id: batch!.id })) as { actualCost: number | null }).actualCost,
      {
        timeout: 60_000,
      },
    )
    .not.toBeNull();

  await nav(page, 'Batches').click();
  // The list comes first: the chart is folded until asked for, one click away.
  await page.getByTestId('spending-toggle').click();
  const spending = page.getByTestId('spending');
  await expect(spending.getByTestId('spending-chart')).toBeVisible();
  await expect(spending.getByTestId('spending-total')).toContainText('spent on 1 batch');
  await expect(spending.getByTestId('spending-help')).toContainText('actual (settled) cost where known');
  // Three bars a day (estimated, held, actual): today's estimated and actual bars are drawn.
  await expect(
    spending.locator('.recharts-bar-rectangle path, .recharts-bar-rectangle rect').first(),
  ).toBeVisible();
  await expect(spending.locator('.recharts-legend-wrapper').getByText('Estimated')).toBeVisible();
  await expectNoSeriousA11yIssues(page);
  await spending.scrollIntoViewIfNeeded();
  await screenshot(page, 'spending-en');

  await page.getByTestId('language-select').selectOption('zh-CN');
  await expect(spending.getByTestId('spending-total')).toContainText('已花费');
  await expect(spending.locator('.recharts-legend-wrapper').getByText('预估')).toBeVisible();
  await screenshot(page, 'spending-zh-CN');
  await page.getByTestId('language-select').selectOption('en');

  // A chosen range with no batches in it says so.
  await spending.getByTestId('spending-from').fill('2020-01-01');
  await spending.getByTestId('spending-to').fill('2020-01-31');
  await expect(spending.getByTestId('spending-total')).toContainText('spent on 0 batches');
});
