import type { Locator, Page } from '@playwright/test';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchInLibrary, expect, openStudio, pasteText, test } from './studio-fixture';

/**
 * Keyboard only: every dialog opens from the keyboard, Tab and Shift+Tab cannot leave it, Escape
 * closes it, and focus lands back on what opened it. The `?` overlay lists each screen's shortcuts.
 */

/** Presses Tab and Shift+Tab well past the number of controls; focus must stay in the dialog. */
async function expectFocusTrapped(page: Page, dialog: Locator): Promise<void> {
  for (const key of [...Array<string>(12).fill('Tab'), ...Array<string>(12).fill('Shift+Tab')]) {
    await page.keyboard.press(key);
    expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `focus after ${key}`).toBe(true);
  }
}

/** Opens a dialog from the focused opener with a key, checks the trap, closes it with Escape. */
async function roundTrip(
  page: Page,
  opener: Locator,
  key: string,
  dialog: Locator,
  shows: string[] = [],
): Promise<void> {
  await opener.focus();
  await page.keyboard.press(key);
  await expect(dialog).toBeVisible();
  for (const text of shows) await expect(dialog).toContainText(text);
  await expectFocusTrapped(page, dialog);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

function navLink(page: Page, name: RegExp | string): Locator {
  return page.getByRole('navigation', { name: /Main navigation|主导航/ }).getByRole('link', { name });
}

async function goTo(page: Page, name: string, heading: RegExp | string): Promise<Locator> {
  const link = navLink(page, name);
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  return link;
}

test('every dialog traps Tab, closes with Escape and gives focus back to its opener', async ({
  page,
  studio,
}) => {
  await batchInLibrary(studio, 'keys', 'Keyboard batch', ['A kettle', 'Two kettles', 'Three kettles']);
  await openStudio(page, studio);

  // Compose: Import and Template.
  await goTo(page, 'Compose', 'Compose');
  await roundTrip(
    page,
    page.getByTestId('open-import'),
    'Enter',
    page.getByRole('dialog', { name: 'Import prompts' }),
  );
  await roundTrip(
    page,
    page.getByTestId('open-template'),
    'Enter',
    page.getByRole('dialog', { name: 'Expand a template' }),
  );

  // Library: the lightbox from the gallery, Compare from its button.
  await goTo(page, 'Library', 'Library');
  await expect(page.getByTestId('library-count')).toContainText('3 of 3');
  const gallery = page.getByTestId('library-gallery');
  await roundTrip(page, gallery, 'Enter', page.getByTestId('lightbox'));
  await gallery.focus();
  await page.keyboard.press('Shift+ArrowRight');
  await roundTrip(page, page.getByTestId('library-compare'), 'Enter', page.getByTestId('compare'));

  // Copy to folder, from the More menu by keyboard, asks for the folder in the same modal, its field
  // focused; Escape gives the focus back to More, and Enter answers.
  const more = page.getByTestId('library-more');
  const copy = page.getByRole('menuitem', { name: 'Copy to folder…' });
  const ask = page.getByRole('dialog', { name: 'Please confirm' });
  const fromMenu = async () => {
    await more.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(copy).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(ask).toBeVisible();
  };
  await fromMenu();
  await expect(ask).toContainText('Copy the selected images to which folder?');
  await expectFocusTrapped(page, ask);
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(more).toBeFocused();
  await fromMenu();
  const target = join(mkdtempSync(join(tmpdir(), 'keyboard-copy-')), 'picked');
  await page.keyboard.type(target);
  await page.keyboard.press('Enter');
  await expect(ask).toHaveCount(0);
  await expect(page.getByTestId('library-message')).toContainText(`Exported 2 images to ${target}`);
  expect(readdirSync(target).filter((f) => f.endsWith('.png'))).toHaveLength(2);

  // A confirmation: downloading a batch again asks first.
  await goTo(page, 'Batches', 'Batches');
  const card = page.getByRole('link', { name: 'Keyboard batch' });
  await card.focus();
  await page.keyboard.press('Enter');
  const again = page.getByTestId('action-download-again');
  const confirm = page.getByRole('dialog', { name: 'Please confirm' });
  await roundTrip(page, again, 'Enter', confirm);
  // Escape answered no: nothing was downloaded again.
  await expect(page.getByTestId('downloaded-again')).toHaveCount(0);
  // Cancel has the focus, so Enter is the safe answer too.
  await again.focus();
  await page.keyboard.press('Enter');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  await expect(again).toBeFocused();
});

test('Ctrl+Z in a text field outside the grid, or in a dialog, is that field’s own undo; ? is typed there', async ({
  page,
  studio,
}) => {
  await openStudio(page, studio);
  await goTo(page, 'Compose', 'Compose');
  await pasteText(page, '[data-testid="new-row"]', 'first row\nsecond row');
  await expect(page.getByTestId('totals-images')).toContainText('2 / 200 images');

  await page.getByTestId('open-template').focus();
  await page.keyboard.press('Enter');
  const input = page.getByTestId('template-input');
  await expect(input).toBeFocused();
  await page.keyboard.type('A {cup}');
  await page.keyboard.press('Control+z');
  await expect(input).not.toHaveValue('A {cup}');
  await expect(page.getByTestId('totals-images')).toContainText('2 / 200 images');
  await page.keyboard.press('Escape');

  // In the grid, Ctrl+Z is the grid's undo: the pasted rows go.
  await page.getByRole('textbox', { name: 'Row 1 Prompt' }).focus();
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('totals-images')).not.toContainText('2 / 200 images');
  await page.keyboard.press('Control+Shift+z');
  await expect(page.getByTestId('totals-images')).toContainText('2 / 200 images');

  const name = page.getByTestId('task-name');
  await name.focus();
  await page.keyboard.type('Mugs');
  await page.keyboard.press('Control+z');
  await expect(name).not.toHaveValue('Mugs');
  await expect(page.getByTestId('totals-images')).toContainText('2 / 200 images');
  // Shortcuts are off in text fields: "?" is typed, not the overlay.
  await name.fill('');
  await page.keyboard.type('Why?');
  await expect(name).toHaveValue('Why?');
  await expect(page.getByTestId('shortcuts-overlay')).toHaveCount(0);
});

const SCREENS = [
  {
    en: 'Compose',
    zh: '编写',
    shows: ['Duplicate the row', 'Undo a change to the grid'],
    zhShows: '复制该行',
  },
  { en: 'Batches', zh: '批次', shows: ['Close the dialog, back where you were'], zhShows: '关闭对话框' },
  { en: 'Library', zh: '图库', shows: ['Open in the lightbox', 'Zoom in'], zhShows: '在大图中打开' },
  { en: 'Realtime', zh: '实时生成', shows: ['Generate'], zhShows: '生成' },
  { en: 'Knowledge base', zh: '知识库', shows: ['Search'], zhShows: '搜索' },
  {
    en: 'Settings',
    zh: '设置',
    shows: ['Show the keyboard shortcuts of this screen'],
    zhShows: '显示本页面',
  },
];

test('? lists the shortcuts of every screen, in English and in Chinese', async ({ page, studio }) => {
  await openStudio(page, studio);
  for (const language of ['en', 'zh-CN'] as const) {
    if (language === 'zh-CN') {
      await goTo(page, 'Settings', 'Settings');
      await page.getByTestId('language-select').selectOption('zh-CN');
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    }
    for (const screen of SCREENS) {
      const name = language === 'en' ? screen.en : screen.zh;
      const link = navLink(page, name);
      await link.focus();
      await page.keyboard.press('Enter');
      await expect(link).toHaveAttribute('aria-current', 'page');
      const title = language === 'en' ? `Keyboard shortcuts: ${name}` : `键盘快捷键：${name}`;
      await roundTrip(
        page,
        link,
        '?',
        page.getByRole('dialog', { name: title }),
        language === 'en' ? screen.shows : [screen.zhShows],
      );
    }
  }
});
