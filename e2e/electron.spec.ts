import { _electron as electron, expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from '../build/electron-binary.mjs';

const binary = findElectronBinary();
const display = process.platform !== 'linux' || !!process.env.DISPLAY || !!process.env.WAYLAND_DISPLAY;

const skipReason = !binary
  ? 'Electron binary is not installed (offline install): desktop e2e skipped'
  : !display
    ? 'No display for a desktop window: desktop e2e skipped'
    : undefined;
if (skipReason) console.log(skipReason);
test.skip(skipReason !== undefined, skipReason);

test('the desktop window isolates the renderer and exposes only window.studio', async () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const app = await electron.launch({
    executablePath: binary!,
    args: [root, `--user-data-dir=${mkdtempSync(join(tmpdir(), 'studio-electron-'))}`],
  });
  try {
    const win = await app.firstWindow();
    await expect(win.getByRole('navigation')).toBeVisible();
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
