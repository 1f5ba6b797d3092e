import type { Locator, Page } from '@playwright/test';
import {
  expect,
  expectNoSeriousA11yIssues,
  openScreen,
  promptsDraft,
  screenshot,
  screenshotBothThemes,
  test,
} from './studio-fixture';

// Batches puts the list first: on a 13-inch laptop's 1280×800 window, a dozen batches are mostly in
// view before any scrolling, each with its live state. The costs are one line, their explanation waits
// behind `?`, the spending chart behind a toggle that is remembered, and the filters take one row.

const PRODUCTS = [
  'Mugs',
  'Plates',
  'Vases',
  'Teapots',
  'Bowls',
  'Jugs',
  'Cups',
  'Saucers',
  'Platters',
  'Pitchers',
  'Ramekins',
  'Tumblers',
];

/** The batch rows whose box lies wholly inside the window, as it is, without scrolling. */
async function rowsWhollyInView(page: Page): Promise<Locator[]> {
  const { width, height } = page.viewportSize()!;
  const inView: Locator[] = [];
  for (const row of await page.locator('.batch-list .batch-card').all()) {
    const box = await row.boundingBox();
    if (box && box.y >= 0 && box.x >= 0 && box.y + box.height <= height && box.x + box.width <= width)
      inView.push(row);
  }
  return inView;
}

/** At least eight whole rows in view, each showing its state badge and where its images stand. */
async function expectEightWithTheirState(page: Page): Promise<number> {
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const rows = await rowsWhollyInView(page);
  expect(rows.length).toBeGreaterThanOrEqual(8);
  for (const row of rows) {
    await expect(row.getByTestId('batch-status')).not.toBeEmpty();
    await expect(row.getByTestId('batch-download')).not.toBeEmpty();
    await expect(row.getByRole('progressbar')).toBeVisible();
  }
  return rows.length;
}

test('a dozen batches: eight or more in view at 1280×800, costs in one line, filters on one row, the chart remembered', async ({
  page,
  studio,
}) => {
  await openScreen(page, studio, 'Batches');
  const ids: string[] = [];
  for (const [i, name] of PRODUCTS.entries()) {
    // Every fourth batch has a failing item, so the list shows failures beside successes.
    const prompts = [`${name} on linen`, i % 4 === 3 ? `${name} on oak [fail]` : `${name} on oak`];
    const { batch } = await studio.call('batches.submit', {
      draft: promptsDraft(`list-${i}`, name, prompts),
    });
    ids.push(batch.id as string);
  }
  // The list follows by itself, up to every batch in the library.
  await expect(page.locator('.batch-list .batch-card')).toHaveCount(12);
  for (const id of ids)
    await expect(page.getByTestId(`batch-${id}`).getByTestId('batch-download')).toHaveAttribute(
      'data-state',
      'in-library',
      { timeout: 60_000 },
    );

  // The chart starts folded; the costs are one line.
  const toggle = page.getByTestId('spending-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('spending')).toHaveCount(0);
  await expect(page.getByTestId('costs')).toContainText('12 batches · estimate');
  const costs = (await page.getByTestId('costs').boundingBox())!;
  const lineHeight = await page
    .getByTestId('costs')
    .evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  expect(costs.height).toBeLessThan(lineHeight * 1.5);

  const english = await expectEightWithTheirState(page);
  console.log(`whole batch rows in view at 1280×800, English: ${english} of 12`);

  // The filters are one row: every control starts at the same height.
  const filters = page.getByRole('search', { name: 'Filter batches' });
  const tops = await Promise.all(
    (await filters.locator('select, input').all()).map(async (c) => (await c.boundingBox())!.y),
  );
  expect(tops).toHaveLength(5);
  for (const top of tops) expect(Math.abs(top - tops[0]!)).toBeLessThanOrEqual(1);
  await expectNoSeriousA11yIssues(page);
  await screenshotBothThemes(page, 'batches-list');

  // `?` opens the explanation, by keyboard too; Escape puts it away and gives focus back.
  const help = page.getByTestId('costs-help-toggle');
  await expect(help).toHaveAccessibleName('What these figures mean');
  await expect(page.getByTestId('costs-help')).toBeHidden();
  await help.focus();
  await page.keyboard.press('Enter');
  await expect(help).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('costs-help')).toBeVisible();
  await expect(page.getByTestId('costs-help')).toContainText('the gateway holds a margin above the estimate');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('costs-help')).toBeHidden();
  await expect(help).toBeFocused();
  await help.click();
  await expect(page.getByTestId('costs-help')).toBeVisible();
  // A click elsewhere puts it away too.
  await page.getByRole('heading', { name: 'Batches', level: 1 }).click();
  await expect(page.getByTestId('costs-help')).toBeHidden();

  // One click opens the chart, and a reload keeps it open; folded again, it stays folded.
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('spending-chart')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('spending-chart')).toBeVisible();
  await expect(page.getByTestId('spending-toggle')).toHaveAttribute('aria-expanded', 'true');
  await page.getByTestId('spending-toggle').click();
  await expect(page.getByTestId('spending')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.batch-list .batch-card')).toHaveCount(12);
  await expect(page.getByTestId('spending-toggle')).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('spending')).toHaveCount(0);

  // Chinese: the same density, every string translated.
  await page.getByTestId('language-select').selectOption('zh-CN');
  await expect(page.getByTestId('costs')).toContainText('此配置的费用');
  await expect(page.getByTestId('spending-toggle')).toHaveText('显示每日花费图');
  await expect(page.getByTestId('costs-help-toggle')).toHaveAccessibleName('这些数字的含义');
  await expect(page.getByRole('search', { name: '筛选批次' })).toBeVisible();
  const chinese = await expectEightWithTheirState(page);
  console.log(`whole batch rows in view at 1280×800, Chinese: ${chinese} of 12`);
  const zhTops = await Promise.all(
    (await page.getByRole('search').locator('select, input').all()).map(
      async (c) => (await c.boundingBox())!.y,
    ),
  );
  for (const top of zhTops) expect(Math.abs(top - zhTops[0]!)).toBeLessThanOrEqual(1);
  await screenshot(page, 'batches-list-zh-CN');
  await page.getByTestId('costs-help-toggle').click();
  await expect(page.getByTestId('costs-help')).toContainText('冻结');
  await page.getByTestId('costs-help-toggle').click();
  await page.getByTestId('language-select').selectOption('en');

  // The filters still filter, and a row still opens its batch.
  await page.getByTestId('filter-name').fill('Pitch');
  await expect(page.locator('.batch-list .batch-card')).toHaveCount(1);
  await page.getByRole('link', { name: 'Pitchers' }).click();
  await expect(page.getByTestId('detail-status')).toHaveText('Completed');
});
