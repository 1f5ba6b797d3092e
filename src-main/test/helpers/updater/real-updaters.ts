import {
  configureRequestOptions,
  configureRequestUrl,
  HttpExecutor,
  type DownloadOptions,
} from 'builder-util-runtime';
import type { AppUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { join } from 'node:path';

/** The cache folder name electron-builder writes into app-update.yml (`${name}-updater`). */
export const UPDATER_CACHE_DIR = 'batch-image-studio-updater';
export const PUBLISHER = 'Batch Image Studio contributors';

/**
 * Node's http behind electron-updater's HttpExecutor, downloading the way ElectronHttpExecutor
 * does: through builder-util-runtime's doDownload, whose pipe checks the sha512 the feed gave.
 * (electron-updater's own test executor writes the file without that check.)
 */
export class VerifyingNodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback);
  }

  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error: Error | null) => (error == null ? resolve(destination) : reject(error)),
          responseHandler: null,
        },
        0,
      );
    });
  }
}

export interface FakeApp extends AppAdapter {
  quits: number;
  /** The updater's cache: `<baseCachePath>/<updaterCacheDirName>`, with `pending/` for a download. */
  cacheDir: string;
}

/**
 * The installed studio as electron-updater sees it, in a folder of its own: its version, its
 * app-update.yml (the generic feed, as electron-builder writes it) and its data and cache folders.
 */
export function fakeApp(dir: string, version: string, feedUrl: string): FakeApp {
  const userDataPath = join(dir, 'userData');
  const baseCachePath = join(dir, 'cache');
  mkdirSync(userDataPath, { recursive: true });
  mkdirSync(baseCachePath, { recursive: true });
  const appUpdateConfigPath = join(dir, 'app-update.yml');
  writeFileSync(
    appUpdateConfigPath,
    [
      'provider: generic',
      `url: ${feedUrl}`,
      `updaterCacheDirName: ${UPDATER_CACHE_DIR}`,
      'publisherName:',
      `  - ${PUBLISHER}`,
      '',
    ].join('\n'),
  );
  const app: FakeApp = {
    version,
    name: 'batch-image-studio',
    isPackaged: true,
    appUpdateConfigPath,
    userDataPath,
    baseCachePath,
    cacheDir: join(baseCachePath, UPDATER_CACHE_DIR),
    quits: 0,
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => void (app.quits += 1),
    onQuit: () => undefined,
  };
  return app;
}

/** A real updater class on the fake app, with the verifying Node client in place of Electron's net. */
export function onNode<U extends AppUpdater>(updater: U): U {
  Object.assign(updater, { httpExecutor: new VerifyingNodeHttpExecutor() });
  // Quiet: the tests read outcomes, not electron-updater's narration.
  updater.logger = null;
  return updater;
}

/** A staging id whose place in the rollout (0–100) is known: electron-updater reads bytes 12–15. */
export function writeUpdaterId(app: FakeApp, percentile: number): void {
  const value = Math.floor((percentile / 100) * 0xffffffff);
  const hex = value.toString(16).padStart(8, '0');
  // A v4-shaped UUID whose last 4 bytes are `value`.
  writeFileSync(join(app.userDataPath, '.updaterId'), `8b5c1f0e-3a4d-4c2b-9e7f-1234${hex}`);
}
