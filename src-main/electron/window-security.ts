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

/** Whether a URL is the studio's own page (file:// has no host, so the path must match too). */
function isOwnPage(url: string | undefined, rendererIndex: string): boolean {
  if (!url) return false;
  const own = new URL(rendererUrl(rendererIndex));
  try {
    const given = new URL(url);
    return (
      given.protocol === own.protocol &&
      given.host === own.host &&
      (own.protocol !== 'file:' || given.pathname === own.pathname)
    );
  } catch {
    return false;
  }
}

/**
 * Notifications for everyone; writing to the clipboard ("Copy details" on an error) only for the
 * studio's own page; nothing else.
 */
function permitted(permission: string, url: string | undefined, rendererIndex: string): boolean {
  if (permission === 'notifications') return true;
  return permission === 'clipboard-sanitized-write' && isOwnPage(url, rendererIndex);
}

/**
 * The Electron security checklist, applied once for every window: no navigation away from the
 * app, no new windows (allowed links open in the system browser), no webviews, and no permission
 * but notifications and the page's own clipboard writes.
 */
export function applyAppSecurity(rendererIndex: string, allowExternal: (url: string) => boolean): void {
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(
      permitted(permission, details.requestingUrl, rendererIndex) &&
        (permission === 'notifications' || isOwnPage(contents.getURL(), rendererIndex)),
    );
  });
  session.defaultSession.setPermissionCheckHandler((contents, permission, _origin, details) =>
    permitted(permission, details.requestingUrl ?? contents?.getURL(), rendererIndex),
  );

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
