import { app, BrowserWindow, dialog } from 'electron';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { translatorIn } from '../../src-shared/i18n/translator';
import type { Language } from '../../src-shared/settings';
import { menuCheckText } from '../../src-shared/update-text';
import type { UpdateAvailability } from '../../src-shared/updates';
import { logCaught, logInfo } from '../services/log/studio-log';
import { LazyUpdaterEngine } from '../services/updates/lazy-updater-engine';
import { updateAvailability } from '../services/updates/update-availability';
import type { UpdateService } from '../services/updates/update-service';
import type { UpdaterEngine } from '../services/updates/updater-engine';

/** electron-builder writes the Linux package's kind (deb, rpm, pacman) beside the app; absent in an AppImage. */
function linuxPackageType(): string | undefined {
  try {
    return readFileSync(join(process.resourcesPath, 'package-type'), 'utf8').trim();
  } catch {
    return undefined;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * This copy's updates: electron-updater when it can update itself, else why not
 * (update-availability.ts). electron-updater and what it requires take 120–300 ms to load, so it
 * is loaded at the first check (lazy-updater-engine.ts), half a minute after start: neither the
 * window nor the services wait for it, and a copy that cannot update never loads it.
 */
export async function desktopUpdates(): Promise<{
  availability: UpdateAvailability;
  engine?: UpdaterEngine;
}> {
  const availability = updateAvailability({
    packaged: app.isPackaged,
    hasUpdateConfig: existsSync(join(process.resourcesPath, 'app-update.yml')),
    platform: process.platform,
    linuxPackageType: process.platform === 'linux' ? linuxPackageType() : undefined,
    appImage: process.env.APPIMAGE,
    writable,
  });
  if (availability.kind !== 'ready') return { availability };
  return { availability, engine: new LazyUpdaterEngine(loadAppUpdater) };
}

async function loadAppUpdater(): Promise<UpdaterEngine> {
  // electron-updater is CommonJS whose `autoUpdater` export Node's ESM loader cannot see by name.
  const [{ default: electronUpdater }, { AppUpdaterEngine }] = await Promise.all([
    import('electron-updater'),
    import('../services/updates/app-updater-engine'),
  ]);
  // Read here, not at import: the getter builds the platform's updater, which needs the app ready.
  const { autoUpdater } = electronUpdater;
  autoUpdater.logger = {
    info: (message: unknown) => logInfo(`updater: ${String(message)}`),
    warn: (message: unknown) => logInfo(`updater (warning): ${String(message)}`),
    error: (message: unknown) => logCaught('updater', message),
    debug: () => undefined,
  };
  return new AppUpdaterEngine(autoUpdater);
}

/** "Check for Updates…" in the menu: a check now; a found update shows in the window's banner. */
export async function checkFromMenu(updates: UpdateService, language: () => Language): Promise<void> {
  const status = await updates.check();
  const t = translatorIn(language());
  const said = menuCheckText(t, status);
  if (!said) return;
  const win = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  const options = {
    type: 'info' as const,
    title: t('updates.title'),
    message: said,
    buttons: [t('menu.ok')],
  };
  await (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options));
}

/**
 * Quitting while an update downloads is asked about first: the download would start over. Quitting
 * for the update itself (quitAndInstall) happens once it is ready, so it is never asked about.
 */
export function askBeforeQuitDuringDownload(updates: UpdateService, language: () => Language): void {
  let confirmed = false;
  app.on('before-quit', (event) => {
    if (confirmed || !updates.downloading()) return;
    event.preventDefault();
    const t = translatorIn(language());
    const version = updates.status().offer?.version ?? '';
    const options = {
      type: 'question' as const,
      title: t('menu.quitDuringUpdate'),
      message: t('menu.quitDuringUpdate'),
      detail: t('menu.quitDuringUpdateDetail', { version }),
      buttons: [t('menu.keepRunning'), t('menu.quitAnyway')],
      defaultId: 0,
      cancelId: 0,
    };
    const win = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
    const choice = win ? dialog.showMessageBoxSync(win, options) : dialog.showMessageBoxSync(options);
    if (choice !== 1) return;
    confirmed = true;
    app.quit();
  });
}
