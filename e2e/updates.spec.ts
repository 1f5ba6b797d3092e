import { expect, expectNoSeriousA11yIssues, openScreen, screenshot, test } from './studio-fixture';

// Browser mode never updates itself: its Updates section, its "Check for Updates…" (the desktop
// menu's item, here in Settings since a page has no menu bar) and the banner are shown but inert,
// and say so. STUDIO_UPDATES_DEMO makes browser mode "find" a version, so the banner can be seen.

test.describe('plain browser mode', () => {
  test('Settings shows the Updates section, says it does nothing here, and keeps the preferences', async ({
    page,
    studio,
  }) => {
    await openScreen(page, studio, 'Settings');
    const section = page.getByTestId('update-settings');
    await expect(section.getByRole('heading', { name: 'Updates' })).toBeVisible();
    await expect(section.getByTestId('update-availability')).toHaveText(
      /Browser mode: updates are shown here but do nothing/,
    );
    await expect(section.getByRole('button', { name: 'Check for Updates…' })).toBeDisabled();
    // Automatic is the default; a choice is kept by main.
    await expect(section.getByLabel('Look for updates')).toHaveValue('automatic');
    await section.getByLabel('Look for updates').selectOption('manual');
    await section.getByLabel('Channel').selectOption('beta');
    await expect(section.getByLabel('Install a downloaded update when I quit the studio')).not.toBeChecked();
    // The choices show once main has kept them (the selects show main's preferences, not the click).
    await expect(section.getByLabel('Look for updates')).toHaveValue('manual');
    await expect(section.getByLabel('Channel')).toHaveValue('beta');
    await page.reload();
    await expect(page.getByTestId('update-settings').getByLabel('Look for updates')).toHaveValue('manual');
    await expect(page.getByTestId('update-settings').getByLabel('Channel')).toHaveValue('beta');
    await expect(page.getByTestId('update-banner')).toHaveCount(0);
    const status = await studio.call('updates.status');
    expect(status).toMatchObject({ availability: { kind: 'browser' }, phase: 'idle' });
    expect(status.lastCheck).toBeUndefined();
  });
});

test.describe('browser mode with a demo update', () => {
  test.use({ studioEnv: { STUDIO_UPDATES_DEMO: '9.9.0' } });

  test('the banner offers the version with its notes, inert, and Later and Skip put it away', async ({
    page,
    studio,
  }) => {
    await openScreen(page, studio, 'Settings');
    const section = page.getByTestId('update-settings');
    await expect(section.getByTestId('update-availability')).toHaveText(/demo update/);
    await section.getByRole('button', { name: 'Check for Updates…' }).click();

    const banner = page.getByRole('region', { name: 'Update available' });
    await expect(banner.getByRole('status').first()).toHaveText(
      'Batch Image Studio 9.9.0 is ready: it is installed when the studio restarts.',
    );
    await banner.getByText('What’s new in 9.9.0').click();
    await expect(banner.getByTestId('update-notes')).toHaveText(/faster library scrolling/);
    await expect(banner.getByTestId('update-inert')).toHaveText(/Restart now does nothing here/);
    await expectNoSeriousA11yIssues(page);
    await page.getByTestId('update-settings').scrollIntoViewIfNeeded();
    await screenshot(page, 'update-banner');

    // Inert: nothing restarts, nothing waits, the offer stays.
    await banner.getByRole('button', { name: 'Restart now' }).click();
    await expect(banner).toBeVisible();
    expect(await studio.call('updates.status')).toMatchObject({ phase: 'ready', restartPending: false });

    // The notes in Chinese when the studio speaks it.
    await page.getByTestId('language-select').selectOption('zh-CN');
    await expect(page.getByRole('region', { name: '可用更新' }).getByTestId('update-notes')).toHaveText(
      /图库滚动更流畅/,
    );
    await page.getByTestId('language-select').selectOption('en');

    await banner.getByRole('button', { name: 'Later' }).click();
    await expect(page.getByTestId('update-banner')).toHaveCount(0);
    // Asking again shows it again.
    await section.getByRole('button', { name: 'Check for Updates…' }).click();
    await expect(page.getByTestId('update-banner')).toBeVisible();

    await page.getByTestId('update-banner').getByRole('button', { name: 'Skip this version' }).click();
    await expect(page.getByTestId('update-banner')).toHaveCount(0);
    expect(await studio.call('updates.status')).toMatchObject({ skippedVersion: '9.9.0', phase: 'idle' });
  });

  test('updates off: nothing is checked, and Settings says so', async ({ page, studio }) => {
    await openScreen(page, studio, 'Settings');
    const section = page.getByTestId('update-settings');
    await section.getByLabel('Look for updates').selectOption('off');
    await expect(section.getByTestId('update-off')).toHaveText(
      'Updates are off: the studio never looks for them.',
    );
    await expect(section.getByRole('button', { name: 'Check for Updates…' })).toBeDisabled();
    expect(await studio.call('updates.check')).toMatchObject({ phase: 'idle' });
    expect((await studio.call('updates.status')).nextCheckAt).toBeUndefined();
  });
});
