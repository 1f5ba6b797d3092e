import { app, BrowserWindow, dialog, ipcMain, nativeTheme, shell } from 'electron';
import { showContextMenu } from './context-menu';
import Store from 'electron-store';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../src-shared/ipc-channels';
import { isAllowedExternalUrl } from '../services/external-links';
import { initStudioLog, logCaught, logFolder, logInfo, logUncaughtErrors } from '../services/log/studio-log';
import { FileSecretStore } from '../services/secrets/secret-store';
import { makeDirSync } from '../services/storage/atomic-file';
import { flushedStore } from '../services/settings/key-value-store';
import type { StudioServices } from '../services/studio-services';
import type { FirstServices } from '../services/first-services';
import { translatorIn } from '../../src-shared/i18n/translator';
import { isLanguage, languageOfLocale, type Language } from '../../src-shared/settings';
import { applyAppMenu } from './app-menu';
import { askBeforeQuitDuringDownload, checkFromMenu, desktopUpdates } from './app-updates';
import { APP_ID, PRODUCT_NAME } from './product';
import { handleImageScheme, registerImageScheme } from './image-protocol';
import { notifyFinishedBatches } from './batch-notifications';
import { showBatchProgress } from './taskbar-progress';
import { MIN_SIZE } from './window-bounds';
import { rememberWindowState, restoredBounds } from './window-state';
import { SafeStorageSecretStore, osEncryptionUsable } from './safe-storage-secrets';
import { applyAppSecurity, isTrustedFrame, rendererUrl } from './window-security';

const here = dirname(fileURLToPath(import.meta.url));
const RENDERER_INDEX = join(here, '..', 'renderer', 'index.html');
const PRELOAD = join(here, '..', 'preload', 'index.cjs');

let services: StudioServices | undefined;
let mainWindow: BrowserWindow | undefined;
let store: Store<Record<string, unknown>> | undefined;
let progressShown: (() => void) | undefined;

/** The window where it was last time; `route` opens a screen directly (`batches/<id>`). */
function createWindow(route?: string): BrowserWindow {
  const placed = store ? restoredBounds(store) : { bounds: {}, maximized: false };
  const win = new BrowserWindow({
    ...placed.bounds,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: 'Batch Image Studio',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#17181c' : '#f6f7f9',
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  if (store) rememberWindowState(win, store);
  win.once('ready-to-show', () => {
    if (placed.maximized) win.maximize();
    win.show();
  });
  let reloadedAt = 0;
  win.webContents.on('render-process-gone', (_event, details) => {
    logCaught('window', new Error(`The renderer went away (${details.reason}, exit ${details.exitCode}).`));
    // Reload once after a crash; a page that keeps crashing is left for the person to close.
    if (details.reason === 'clean-exit' || win.isDestroyed() || Date.now() - reloadedAt < 60_000) return;
    reloadedAt = Date.now();
    win.reload();
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = undefined;
  });
  void win.loadURL(`${rendererUrl(RENDERER_INDEX)}${route ? `#/${route}` : ''}`);
  mainWindow = win;
  progressShown?.();
  return win;
}

/** Brings the studio to the front, opening its window again if it was closed (macOS keeps running). */
function showMainWindow(): BrowserWindow | undefined {
  // A new window shows itself once drawn; none is made again until the services run.
  if (!mainWindow || mainWindow.isDestroyed()) return services ? createWindow() : undefined;
  const win = mainWindow;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
  return win;
}

async function start(): Promise<void> {
  const dataDir = app.getPath('userData');
  makeDirSync(dataDir);
  // Logging from the first step: a settings file that cannot be read fails before the services
  // start (which set the log up again, with the keys to redact, once the profiles are loaded).
  initStudioLog(join(dataDir, 'logs'), (text) => text);
  const settingsStore = new Store<Record<string, unknown>>({ name: 'settings' });
  store = settingsStore;
  const secrets = osEncryptionUsable()
    ? new SafeStorageSecretStore(settingsStore)
    : new FileSecretStore(dataDir);
  // From here on, what a person reads is the product name: notifications, the window's class, the
  // dock. The OS key store was opened above under the package name, and the data folder was pinned
  // before the app was ready, so neither moves for existing users.
  app.setName(PRODUCT_NAME);

  // The window first: it paints its shell and shows (ready-to-show) while the services load and
  // start behind it; its calls and images wait for them.
  let started!: (live: StudioServices) => void;
  let failed!: (err: unknown) => void;
  const servicesReady = new Promise<StudioServices>((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  // A start that fails is reported by startFailed; calls waiting on it then fail too.
  servicesReady.catch(() => undefined);
  // The first screen's services start before the rest (studio-start.ts): its calls are answered,
  // and the events reach the window, as soon as they run.
  let firstStarted!: (first: FirstServices) => void;
  const firstReady = new Promise<FirstServices>((resolve, reject) => {
    firstStarted = resolve;
    servicesReady.catch(reject);
  });
  firstReady.catch(() => undefined);
  const images = servicesReady.then((live) => live.images);
  images.catch(() => undefined);
  handleImageScheme(images);
  applyAppSecurity(RENDERER_INDEX, (url) =>
    isAllowedExternalUrl(
      url,
      (services?.profiles.list() ?? []).map((p) => p.baseUrl),
    ),
  );
  ipcMain.handle(IPC_CALL_CHANNEL, async (event, method: unknown, input: unknown) => {
    if (!isTrustedFrame(event.senderFrame, RENDERER_INDEX)) {
      return {
        ok: false,
        error: {
          code: 'STUDIO_UNTRUSTED_SENDER',
          message: 'Refused a call from an unknown frame.',
          retryable: false,
          source: 'studio',
        },
      };
    }
    const name = typeof method === 'string' ? method : '';
    const first = await firstReady;
    return (first.answers(name) ? first : await servicesReady).dispatch(name, input);
  });
  createWindow();
  logInfo(`Desktop window opened (Electron ${process.versions.electron}); starting the services.`);

  let updates: Awaited<ReturnType<typeof desktopUpdates>>;
  try {
    // What this copy can do about updates: known at once; electron-updater itself loads at the first check.
    updates = await desktopUpdates();
    // Loaded here, not imported above: every service and what they load stays off the window's
    // path; the rest's code loads only once the first screen's services run (studio-start.ts).
    const { startStudio } = await import('../services/studio-start');
    const starting = startStudio({
      host: 'desktop',
      version: app.getVersion(),
      updates,
      dataDir,
      store: flushedStore(settingsStore),
      secrets,
      pickFolder: async (title) => {
        const options = {
          title,
          properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[],
        };
        const result = mainWindow
          ? await dialog.showOpenDialog(mainWindow, options)
          : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
      pickSavePath: async (defaultName) => {
        const t = translatorIn(services?.settings.get().language ?? 'en');
        const pdf = defaultName.endsWith('.pdf');
        const options = {
          title: pdf ? t('menu.savePdf') : t('menu.saveZip'),
          defaultPath: join(app.getPath('downloads'), defaultName),
          filters: [
            pdf
              ? { name: t('menu.pdfFiles'), extensions: ['pdf'] }
              : { name: t('menu.zipFiles'), extensions: ['zip'] },
          ],
        };
        const result = mainWindow
          ? await dialog.showSaveDialog(mainWindow, options)
          : await dialog.showSaveDialog(options);
        return result.canceled || !result.filePath ? null : result.filePath;
      },
      openExternal: (url) => shell.openExternal(url),
      showContextMenu: (menu) => showContextMenu(mainWindow, menu),
      openPath: async (path) => {
        const error = await shell.openPath(path);
        if (error) throw new Error(error);
      },
    });
    firstStarted(starting.first);
    starting.first.events.subscribe((event, payload) => {
      for (const win of BrowserWindow.getAllWindows())
        win.webContents.send(IPC_EVENT_CHANNEL, event, payload);
    });
    services = await starting.all;
  } catch (err) {
    failed(err);
    throw err;
  }
  const live = services;
  started(live);

  const language = () => live.settings.get().language;
  const menu = () =>
    applyAppMenu({
      language: language(),
      dev: !app.isPackaged,
      noUpdateFeed: updates.availability.kind === 'no-feed',
      checkForUpdates: () => {
        showMainWindow();
        checkFromMenu(live.updates, language).catch((err: unknown) => logCaught('check for updates', err));
      },
    });
  askBeforeQuitDuringDownload(live.updates, language);
  menu();
  live.events.subscribe((event) => {
    if (event === 'settings.changed') menu();
  });
  notifyFinishedBatches(live, (batchId) => {
    const win = mainWindow && !mainWindow.isDestroyed() ? mainWindow : undefined;
    if (!win) return void createWindow(`batches/${encodeURIComponent(batchId)}`);
    showMainWindow();
    live.events.emit('app.showBatch', { id: batchId });
  });
  progressShown = showBatchProgress(live, () => mainWindow);
  logInfo('Desktop services started.');
}

/** The language to explain a failed start in: the saved setting when it could be read, else the system's. */
function startupLanguage(): Language {
  const saved = (store?.get('settings') as { language?: unknown } | undefined)?.language;
  return isLanguage(saved) ? saved : languageOfLocale(app.getLocale());
}

/**
 * The studio could not start (another studio holds the data folder, a damaged settings file, a
 * port refused): the error and its stack go to the log, the person gets a sentence in their
 * language and where the log is, then the app quits instead of running without a window.
 */
function startFailed(err: unknown): void {
  logCaught('desktop start', err);
  let language: Language = 'en';
  try {
    language = startupLanguage();
  } catch (readErr) {
    logCaught('desktop start: language of the message', readErr);
  }
  const t = translatorIn(language);
  const dataDir = app.getPath('userData');
  const body =
    (err as { code?: unknown } | undefined)?.code === 'STUDIO_ALREADY_RUNNING'
      ? t('menu.alreadyRunning', { folder: dataDir })
      : t('menu.startFailedBody', { folder: logFolder() ?? join(dataDir, 'logs') });
  dialog.showErrorBox(t('menu.startFailed'), body);
  app.quit();
}

logUncaughtErrors();
// The data folder keeps the package's name whatever the app is called later (app.setName in start).
app.setPath('userData', app.getPath('userData'));
// Windows ties notifications (and their clicks) to the Start menu shortcut the installer makes with
// the app id; an unpackaged Electron has no such shortcut and goes by its executable instead.
if (process.platform === 'win32') app.setAppUserModelId(app.isPackaged ? APP_ID : process.execPath);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerImageScheme();
  // A second launch (a double click on the icon again) brings this one forward and then quits.
  app.on('second-instance', () => showMainWindow());
  // .catch after .then: a start() that throws or rejects (not only whenReady) ends here.
  app.whenReady().then(start).catch(startFailed);
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0 && services) createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    void services?.close();
  });
}
