import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, openStudio, test } from './studio-fixture';

/** The test-only switch of src-renderer/shell/ScreenErrorBoundary.tsx: that screen throws while drawing. */
const CRASH_TEST_KEY = 'studio.crashTest';

/**
 * The main process's log file in the studio's data folder; empty until the services have started
 * and made it (browser mode starts them once the page is in, which may be after the first click).
 */
function studioLog(dataDir: string): string {
  const file = join(dataDir, 'logs', 'studio.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

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
  // And the log file has it, for whoever reads a log sent in after a problem.
  await expect
    .poll(() => studioLog(studio.dataDir))
    .toMatch(/\[window: library screen\] Error: Crash test: the library screen/);

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

test('a broken top bar leaves a compact notice, the rest of the window works, and it recovers', async ({
  page,
  studio,
}) => {
  await openStudio(page, studio);
  await page.evaluate((key) => sessionStorage.setItem(key, 'topbar'), CRASH_TEST_KEY);
  await page.reload();

  const crash = page.getByTestId('shell-crash-topbar');
  await expect(crash).toBeVisible();
  await expect(crash).toContainText('This part of the window ran into a problem');
  await expect(crash.getByTestId('shell-crash-details')).toContainText('Crash test: the topbar');
  await expect(page.getByTestId('connection-indicator')).toHaveCount(0);
  await expect
    .poll(() => studioLog(studio.dataDir))
    .toMatch(/\[window: topbar\] Error: Crash test: the topbar/);

  // The sidebar and the screens are untouched.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Batches' }).click();
  await expect(page.locator('#screen-title')).toHaveText('Batches');

  // Once the cause is gone, its own "Try again" draws the top bar again.
  await page.evaluate((key) => sessionStorage.removeItem(key), CRASH_TEST_KEY);
  await crash.getByRole('button', { name: 'Try again' }).click();
  await expect(crash).toHaveCount(0);
  await expect(page.getByTestId('connection-indicator')).toBeVisible();
});

test('a screen whose code cannot be fetched says so, and "Try again" fetches it once it can', async ({
  page,
  studio,
}) => {
  // Refused from the start: the window fetches the other screens' code once it is idle.
  const libraryCode = '**/assets/LibraryScreen-*.js';
  await page.route(libraryCode, (route) => route.abort());
  await openStudio(page, studio);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const crash = page.getByTestId('screen-crash');
  await nav.getByRole('link', { name: 'Library' }).click();
  await expect(crash).toBeVisible();
  await expect(page.getByTestId('screen-crash-details')).toContainText('LibraryScreen');

  // The studio answers again (a host that restarted): the same button, not a reload.
  await page.unroute(libraryCode);
  await crash.getByRole('button', { name: 'Try again' }).click();
  await expect(crash).toHaveCount(0);
  await expect(page.locator('#screen-title')).toHaveText('Library');
  await expect(page.getByText('The library is empty.')).toBeVisible();
});

test("a Chinese window opens the Library without the Library's English strings, and has them once English", async ({
  page,
  studio,
}) => {
  // The Library's English strings are a chunk of their own (src-shared/i18n/en-library.ts).
  const englishStrings = '**/assets/en-library-*.js';
  await page.route(englishStrings, (route) => route.abort());
  await openStudio(page, studio);
  await page.getByTestId('language-select').selectOption('zh-CN');
  await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '图库' }).click();
  await expect(page.getByText('图库为空。')).toBeVisible();
  await expect(page.getByTestId('screen-crash')).toHaveCount(0);

  // Back to English once they can come: the Library in words, not keys.
  await page.unroute(englishStrings);
  await page.getByTestId('language-select').selectOption('en');
  await expect(page.getByText('The library is empty.')).toBeVisible();
  await expect(page.locator('main')).not.toContainText('library.');
});
