import { expect, openStudio, test } from './studio-fixture';

/** The test-only switch of src-renderer/shell/ScreenErrorBoundary.tsx: that screen throws while drawing. */
const CRASH_TEST_KEY = 'studio.crashTest';

test('a screen that fails to draw explains itself, the rest of the studio works, and it recovers', async ({
  page,
  studio,
}) => {
  await openStudio(page, studio);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const title = page.locator('#screen-title');
  await page.evaluate((key) => sessionStorage.setItem(key, 'library'), CRASH_TEST_KEY);

  await nav.getByRole('link', { name: 'Library' }).click();
  const crash = page.getByTestId('screen-crash');
  await expect(crash).toBeVisible();
  await expect(crash.getByRole('heading')).toHaveText('This screen ran into a problem');
  await expect(page.getByTestId('screen-crash-details')).toContainText('Crash test: the library screen');
  await expect(crash.getByRole('button', { name: 'Copy details' })).toBeVisible();

  // The sidebar and the other screens keep working.
  await nav.getByRole('link', { name: 'Batches' }).click();
  await expect(crash).toHaveCount(0);
  await expect(title).toHaveText('Batches');
  await nav.getByRole('link', { name: 'Library' }).click();
  await expect(crash).toBeVisible();

  // "Go to Compose" leaves the broken screen.
  await crash.getByRole('button', { name: 'Go to Compose' }).click();
  await expect(crash).toHaveCount(0);
  await expect(title).toHaveText('Compose');

  // Once the cause is gone, "Try again" draws the screen for real.
  await nav.getByRole('link', { name: 'Library' }).click();
  await expect(crash).toBeVisible();
  await page.evaluate((key) => sessionStorage.removeItem(key), CRASH_TEST_KEY);
  await crash.getByRole('button', { name: 'Try again' }).click();
  await expect(crash).toHaveCount(0);
  await expect(title).toHaveText('Library');

  // In Chinese too.
  await page.evaluate((key) => sessionStorage.setItem(key, 'settings'), CRASH_TEST_KEY);
  await page.getByTestId('language-select').selectOption('zh-CN');
  await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '设置' }).click();
  await expect(crash.getByRole('heading')).toHaveText('此页面出现问题');
  await expect(crash.getByRole('button', { name: '重试' })).toBeVisible();
  await page.evaluate((key) => sessionStorage.removeItem(key), CRASH_TEST_KEY);
  await page.getByTestId('language-select').selectOption('en');
});
