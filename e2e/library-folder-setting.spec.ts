import { expect, openStudio, test } from './studio-fixture';

test('a system location as the library folder is refused in words, in English and Chinese', async ({
  page,
  studio,
}) => {
  await openStudio(page, studio);
  await page.getByRole('link', { name: 'Settings' }).click();
  const field = page.getByLabel('Library folder');
  // The field fills in once the settings have arrived; read it only then.
  await expect(field).not.toHaveValue('');
  const before = await field.inputValue();
  await field.fill('/proc/self');
  await field.blur();
  const notice = page.locator('[data-error-code="STUDIO_LIBRARY_DIR_INVALID"]');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('not a file or a system location such as /proc');
  expect((await studio.call('settings.get')).libraryDir).toBe(before);

  await page.getByTestId('language-select').selectOption('zh-CN');
  await expect(notice).toContainText('不能作为图库文件夹');
});
