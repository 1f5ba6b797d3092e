import { app, session, shell, type WebContents, type WebFrameMain } from 'electron';
import { pathToFileURL } from 'node:url';

/** The renderer's own URL: the dev server while developing, the built file otherwise. */
export function rendererUrl(rendererIndex: string): string {
  return process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(rendererIndex).toString();
}

/** Only frames showing the studio's own page may call the API. */
export function isTrustedFrame(frame: WebFrameMain | null | undefined, rendererIndex: string): boolean {
  if (!frame || frame.parent) return false;
  const own = new URL(rendererUrl(rendererIndex));
  try {
    const url = new URL(frame.url);
    return url.protocol === own.protocol && url.host === own.host && url.pathname === own.pathname;
  } catch {
    return false;
  }
}

/**
 * The Electron security checklist, applied once for every window: no navigation away from the
 * app, no new windows (allowed links open in the system browser), no webviews, and no permission
 * but notifications.
 */
export function applyAppSecurity(rendererIndex: string, allowExternal: (url: string) => boolean): void {
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => {
    callback(permission === 'notifications');
  });
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => permission === 'notifications');

  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.on('will-navigate', (event, url) => {
      if (url !== rendererUrl(rendererIndex)) event.preventDefault();
    });
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (allowExternal(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}
