import { app, BrowserWindow, dialog, ipcMain, nativeTheme, shell } from 'electron';
import Store from 'electron-store';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../../src-shared/ipc-channels';
import { isAllowedExternalUrl } from '../services/external-links';
import { FileSecretStore } from '../services/secrets/secret-store';
import { createStudioServices, type StudioServices } from '../services/studio-services';
import { notifyFinishedBatches } from './batch-notifications';
import { SafeStorageSecretStore, osEncryptionUsable } from './safe-storage-secrets';
import { applyAppSecurity, isTrustedFrame, rendererUrl } from './window-security';

const here = dirname(fileURLToPath(import.meta.url));
const RENDERER_INDEX = join(here, '..', 'renderer', 'index.html');
const PRELOAD = join(here, '..', 'preload', 'index.cjs');

let services: StudioServices | undefined;
let mainWindow: BrowserWindow | undefined;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1440,
    height: 920,
    minWidth: 960,
    minHeight: 640,
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
  win.once('ready-to-show', () => win.show());
  void win.loadURL(rendererUrl(RENDERER_INDEX));
  return win;
}

async function start(): Promise<void> {
  const dataDir = app.getPath('userData');
  mkdirSync(dataDir, { recursive: true });
  const store = new Store<Record<string, unknown>>({ name: 'settings' });
  const secrets = osEncryptionUsable() ? new SafeStorageSecretStore(store) : new FileSecretStore(dataDir);

  services = await createStudioServices({
    host: 'desktop',
    version: app.getVersion(),
    dataDir,
    store,
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
    openExternal: (url) => shell.openExternal(url),
    openPath: async (path) => {
      const error = await shell.openPath(path);
      if (error) throw new Error(error);
    },
  });
  const live = services;

  applyAppSecurity(RENDERER_INDEX, (url) =>
    isAllowedExternalUrl(
      url,
      live.profiles.list().map((p) => p.baseUrl),
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
    return live.dispatch(typeof method === 'string' ? method : '', input);
  });

  live.events.subscribe((event, payload) => {
    for (const win of BrowserWindow.getAllWindows()) win.webContents.send(IPC_EVENT_CHANNEL, event, payload);
  });

  notifyFinishedBatches(live, () => mainWindow);
  mainWindow = createWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  app.whenReady().then(start, (err: unknown) => {
    dialog.showErrorBox('Batch Image Studio could not start', String((err as Error)?.message ?? err));
    app.quit();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0 && services) mainWindow = createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    void services?.close();
  });
}
