import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from '../build/electron-binary.mjs';
import { promptsDraft } from '../src-main/test/helpers/prompts-draft';

const binary = findElectronBinary();
const display = process.platform !== 'linux' || !!process.env.DISPLAY || !!process.env.WAYLAND_DISPLAY;

const skipReason = !binary
  ? 'Electron binary is not installed (offline install): desktop e2e skipped'
  : !display
    ? 'No display for a desktop window: desktop e2e skipped'
    : undefined;
if (skipReason) console.log(skipReason);
test.skip(skipReason !== undefined, skipReason);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
/** Electron refuses to run as root (CI containers) unless its sandbox is off. */
const rootArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];

function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'studio-electron-'));
}

function launch(userData: string): Promise<ElectronApplication> {
  return electron.launch({
    executablePath: binary!,
    args: [...rootArgs, root, `--user-data-dir=${userData}`],
    env: { ...process.env, LANG: 'en_US.UTF-8' } as Record<string, string>,
  });
}

async function opened(app: ElectronApplication): Promise<Page> {
  const win = await app.firstWindow();
  await expect(win.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  return win;
}

/** The main window's state, read in the main process. */
function windowState(app: ElectronApplication) {
  return app.evaluate(({ BrowserWindow }) => {
    const all = BrowserWindow.getAllWindows();
    const win = all[0];
    return {
      count: all.length,
      visible: win?.isVisible() ?? false,
      minimized: win?.isMinimized() ?? false,
      bounds: win?.getNormalBounds(),
    };
  });
}

test('the desktop window isolates the renderer and exposes only window.studio', async () => {
  const app = await launch(freshDataDir());
  try {
    const win = await opened(app);
    const exposed = await win.evaluate(() => ({
      studio: typeof (window as any).studio?.call,
      require: typeof (window as any).require,
      process: typeof (window as any).process,
      keys: Object.keys((window as any).studio ?? {}).sort(),
    }));
    expect(exposed).toEqual({
      studio: 'function',
      require: 'undefined',
      process: 'undefined',
      keys: ['call', 'on'],
    });
    // Navigation away from the app is blocked.
    await win.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await win.waitForTimeout(500);
    expect(win.url()).toMatch(/^file:/);
    await expect(win.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'ok');
  } finally {
    await app.close();
  }
});

test('images load from the studio-image: scheme, never as base64', async () => {
  const app = await launch(freshDataDir());
  try {
    const win = await opened(app);
    const loaded = await win.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 180;
      canvas.getContext('2d')!.fillRect(0, 0, 320, 180);
      const dataBase64 = canvas.toDataURL('image/png').split(',')[1]!;
      const ref = await (window as any).studio.call('references.add', { name: 'wide.png', dataBase64 });
      const img = new Image();
      img.src = `studio-image://img/images/references/${ref.id}/thumb`;
      await img.decode();
      return { width: img.naturalWidth, height: img.naturalHeight };
    });
    expect(loaded).toEqual({ width: 256, height: 144 });
  } finally {
    await app.close();
  }
});

test('a second launch brings the first window back and exits', async () => {
  const userData = freshDataDir();
  const app = await launch(userData);
  try {
    await opened(app);
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.minimize());
    await expect.poll(async () => (await windowState(app)).minimized).toBe(true);

    const second = spawn(binary!, [...rootArgs, root, `--user-data-dir=${userData}`], { stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(0);
    await expect.poll(() => windowState(app)).toMatchObject({ count: 1, visible: true, minimized: false });
  } finally {
    await app.close();
  }
});

test('the menu has the usual roles, the log folder, About and Check for Updates…, in the studio language', async () => {
  const userData = freshDataDir();
  const app = await launch(userData);
  try {
    const win = await opened(app);
    const readMenu = () =>
      app.evaluate(({ Menu }) =>
        (Menu.getApplicationMenu()?.items ?? []).map((top) => ({
          label: top.label,
          items: (top.submenu?.items ?? []).map((i) => ({
            id: i.id,
            label: i.label,
            role: i.role?.toLowerCase(),
          })),
        })),
      );
    const menu = await readMenu();
    const edit = menu.find((m) => m.label === 'Edit')!;
    expect(edit.items.map((i) => i.role).filter(Boolean)).toEqual(
      expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectall']),
    );
    const help = menu.find((m) => m.label === 'Help')!;
    expect(help.items.map((i) => i.label)).toContain('Open Log Folder');
    const allItems = menu.flatMap((m) => m.items);
    expect(allItems.some((i) => i.label === 'About Batch Image Studio')).toBe(true);
    expect(menu.map((m) => m.label)).toEqual(
      expect.arrayContaining(['File', 'Edit', 'View', 'Window', 'Help']),
    );

    // Help → Open Log Folder shows the log's folder in the file manager (stubbed: no file manager here).
    const shownFolders = await app.evaluate(({ Menu, shell }) => {
      const paths: string[] = [];
      shell.openPath = (async (path: string) => {
        paths.push(path);
        return '';
      }) as typeof shell.openPath;
      Menu.getApplicationMenu()!.getMenuItemById('open-log-folder')!.click();
      return paths;
    });
    expect(shownFolders).toEqual([join(userData, 'logs')]);
    expect(existsSync(join(userData, 'logs', 'studio.log'))).toBe(true);

    // Help → About (macOS shows its native panel from the app menu instead): the name and version.
    if (process.platform !== 'darwin') {
      const about = await app.evaluate(({ dialog, Menu }) => {
        const shown: { title?: string; message: string; detail?: string }[] = [];
        dialog.showMessageBox = (async (...args: unknown[]) => {
          const options = args[args.length - 1] as { title?: string; message: string; detail?: string };
          shown.push({ title: options.title, message: options.message, detail: options.detail });
          return { response: 0, checkboxChecked: false };
        }) as typeof dialog.showMessageBox;
        Menu.getApplicationMenu()!.getMenuItemById('about')!.click();
        return shown;
      });
      expect(about).toHaveLength(1);
      expect(about[0]).toMatchObject({ title: 'About Batch Image Studio', message: 'Batch Image Studio' });
      expect(about[0]!.detail).toContain(`Version ${version}`);
      // Run from out/, the studio is not packaged: it has no update feed, and About says so.
      expect(about[0]!.detail).toContain('This build has no update address: it never checks for updates.');
    }

    // Check for Updates… (Help, or the app menu on macOS): without a feed it checks nothing, and says so.
    await app.evaluate(({ dialog, Menu }) => {
      const seen = globalThis as unknown as { updateMessages?: string[] };
      seen.updateMessages = [];
      dialog.showMessageBox = (async (...args: unknown[]) => {
        seen.updateMessages!.push((args[args.length - 1] as { message: string }).message);
        return { response: 0, checkboxChecked: false };
      }) as typeof dialog.showMessageBox;
      Menu.getApplicationMenu()!.getMenuItemById('check-for-updates')!.click();
    });
    await expect
      .poll(() =>
        app.evaluate(() => (globalThis as unknown as { updateMessages?: string[] }).updateMessages ?? []),
      )
      .toEqual(['This build was made without an update address, so it never checks for updates.']);

    await win.getByTestId('language-select').selectOption('zh-CN');
    await expect
      .poll(async () => (await readMenu()).map((m) => m.label))
      .toEqual(expect.arrayContaining(['文件', '编辑', '视图', '窗口', '帮助']));
    await win.getByTestId('language-select').selectOption('en');
  } finally {
    await app.close();
  }
});

test('a ZIP export goes through the save dialog and is written by main', async () => {
  // The built-in sandbox runs batches at 20× real time in the desktop app: about a minute.
  test.setTimeout(240_000);
  const app = await launch(freshDataDir());
  try {
    const win = await opened(app);
    // A small batch in the sandbox, downloaded into the library.
    await win.evaluate(
      async (draft) => {
        await (window as any).studio.call('batches.submit', { draft });
      },
      promptsDraft('electron-export', 'Desktop export', ['A red fox', 'A blue whale'], 'p'),
    );
    await expect
      .poll(() => win.evaluate(async () => (await (window as any).studio.call('library.query', {})).total), {
        timeout: 120_000,
      })
      .toBeGreaterThanOrEqual(1);

    const target = join(freshDataDir(), 'chosen picks.zip');
    await app.evaluate(({ dialog }, path) => {
      dialog.showSaveDialog = (async () => ({
        canceled: false,
        filePath: path,
      })) as typeof dialog.showSaveDialog;
    }, target);
    await win
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Library' })
      .click();
    await win.getByTestId('library-gallery').focus();
    await win.keyboard.press('Control+a');
    await win.getByTestId('library-more').click();
    await win.getByTestId('library-export-zip').click();
    await expect.poll(() => existsSync(target)).toBe(true);
    expect(execFileSync('unzip', ['-t', target]).toString()).toContain('No errors detected');
    expect(execFileSync('unzip', ['-l', target]).toString()).toContain('manifest.json');

    // A right click on an image opens the OS's own menu, here stubbed to choose "Reject".
    await app.evaluate(({ Menu }) => {
      const seen = globalThis as unknown as { menuLabels?: string[] };
      Menu.prototype.popup = function (this: Electron.Menu, options?: Electron.PopupOptions) {
        seen.menuLabels = this.items.map((i) => i.label);
        this.items.find((i) => i.label.startsWith('Reject'))?.click();
        options?.callback?.();
      };
    });
    await win.keyboard.press('Escape');
    await win.getByTestId('library-cell').first().click({ button: 'right' });
    await expect
      .poll(() => app.evaluate(() => (globalThis as unknown as { menuLabels?: string[] }).menuLabels))
      .toContain('Reject (X)');
    await expect(win.getByTestId('library-context-menu')).toHaveCount(0);
    await expect(win.getByTestId('library-cell').first()).toContainText('Rejected');
  } finally {
    await app.close();
  }
});

test('a screen that fails to draw is contained, and the studio keeps working', async () => {
  const app = await launch(freshDataDir());
  try {
    const win = await opened(app);
    const nav = win.getByRole('navigation', { name: 'Main navigation' });
    const title = win.locator('#screen-title');
    await win.evaluate(() => sessionStorage.setItem('studio.crashTest', 'library'));
    await nav.getByRole('link', { name: 'Library' }).click();
    const crash = win.getByTestId('screen-crash');
    await expect(crash).toBeVisible();
    await expect(win.getByTestId('screen-crash-details')).toContainText('Crash test: the library screen');
    // "Copy details" reaches the clipboard in the desktop app too (a permission the window grants;
    // the page must have focus to write, as it has when someone clicks the button).
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.focus());
    await crash.getByRole('button', { name: 'Copy details' }).click();
    await expect
      .poll(() => app.evaluate(({ clipboard }) => clipboard.readText()))
      .toContain('Crash test: the library screen');

    // The boundary's own way back: Compose, and the rest of the studio draws as usual.
    await crash.getByRole('button', { name: 'Go to Compose' }).click();
    await expect(crash).toHaveCount(0);
    await expect(title).toHaveText('Compose');

    // Once the cause is gone, "Try again" draws the screen for real.
    await nav.getByRole('link', { name: 'Library' }).click();
    await expect(crash).toBeVisible();
    await win.evaluate(() => sessionStorage.removeItem('studio.crashTest'));
    await crash.getByRole('button', { name: 'Try again' }).click();
    await expect(crash).toHaveCount(0);
    await expect(title).toHaveText('Library');
  } finally {
    await app.close();
  }
});

test('a reload keeps the screen, and a relaunch restores the window where it was', async () => {
  const userData = freshDataDir();
  const bounds = { x: 60, y: 50, width: 1100, height: 720 };
  const first = await launch(userData);
  try {
    const win = await opened(first);
    await win
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Library' })
      .click();
    await expect(win.locator('#screen-title')).toHaveText('Library');
    await first.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.reload());
    await expect(win.locator('#screen-title')).toHaveText('Library');

    await first.evaluate(({ BrowserWindow }, b) => BrowserWindow.getAllWindows()[0]!.setBounds(b), bounds);
    await expect.poll(async () => (await windowState(first)).bounds).toMatchObject(bounds);
  } finally {
    await first.close();
  }
  const second = await launch(userData);
  try {
    await opened(second);
    // Where it was and as large as it was: the position matters as much as the size.
    expect((await windowState(second)).bounds).toEqual(bounds);
  } finally {
    await second.close();
  }
});
