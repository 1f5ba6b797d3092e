import { app, BrowserWindow, dialog, Menu, shell, type MenuItemConstructorOptions } from 'electron';
import { en, type Messages } from '../../src-shared/i18n/en';
import { zhCN } from '../../src-shared/i18n/zh-CN';
import type { Language } from '../../src-shared/settings';
import { logCaught, logFolder } from '../services/log/studio-log';
import { PRODUCT_NAME } from './product';

export interface AppMenuOptions {
  language: Language;
  /** Developer tools only while developing: a packaged studio has no use for them. */
  dev: boolean;
  mac?: boolean;
  /** "Check for Updates…"; the item is there in every build, and says why when it cannot check. */
  checkForUpdates?: () => void;
  /** A build made without an update address: About says it never checks. */
  noUpdateFeed?: boolean;
}

function messagesOf(language: Language): Messages['menu'] {
  return (language === 'zh-CN' ? zhCN : en).menu;
}

/** About: the native panel on macOS, a small dialog elsewhere. */
function showAbout(language: Language, noUpdateFeed = false): void {
  const messages = language === 'zh-CN' ? zhCN : en;
  const m = messages.menu;
  const detail = aboutDetail(m, noUpdateFeed);
  const win = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  // The name as the studio writes it in this language (app.getName() is the package's name).
  const options = {
    type: 'info' as const,
    title: m.about,
    message: messages.app.title,
    detail,
    buttons: [m.ok],
  };
  void (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options));
}

function aboutDetail(m: Messages['menu'], noUpdateFeed: boolean): string {
  const detail = m.aboutDetail.replace('{{version}}', app.getVersion());
  return noUpdateFeed ? `${detail}\n${m.aboutNoFeed}` : detail;
}

function openLogFolder(): void {
  const folder = logFolder();
  if (!folder) return;
  shell.openPath(folder).then(
    (error) => error && logCaught('open log folder', new Error(error)),
    (err: unknown) => logCaught('open log folder', err),
  );
}

/**
 * The menu bar with each platform's usual roles, labelled in the studio's language (roles keep
 * their behaviour and accelerators whatever the label says).
 */
export function appMenuTemplate(options: AppMenuOptions): MenuItemConstructorOptions[] {
  const m = messagesOf(options.language);
  const mac = options.mac ?? process.platform === 'darwin';
  const about: MenuItemConstructorOptions = mac
    ? { role: 'about', label: m.about }
    : { id: 'about', label: m.about, click: () => showAbout(options.language, options.noUpdateFeed) };
  const checkForUpdates: MenuItemConstructorOptions = {
    id: 'check-for-updates',
    label: m.checkForUpdates,
    click: () => options.checkForUpdates?.(),
  };
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: PRODUCT_NAME,
      submenu: [
        about,
        checkForUpdates,
        { type: 'separator' },
        { role: 'services', label: m.services },
        { type: 'separator' },
        { role: 'hide', label: m.hide },
        { role: 'hideOthers', label: m.hideOthers },
        { role: 'unhide', label: m.unhide },
        { type: 'separator' },
        { role: 'quit', label: m.quit },
      ],
    });
  }
  template.push(
    { label: m.file, submenu: [mac ? { role: 'close', label: m.close } : { role: 'quit', label: m.quit }] },
    {
      label: m.edit,
      submenu: [
        { role: 'undo', label: m.undo },
        { role: 'redo', label: m.redo },
        { type: 'separator' },
        { role: 'cut', label: m.cut },
        { role: 'copy', label: m.copy },
        { role: 'paste', label: m.paste },
        { role: 'selectAll', label: m.selectAll },
      ],
    },
    {
      label: m.view,
      submenu: [
        { role: 'reload', label: m.reload },
        ...(options.dev ? [{ role: 'toggleDevTools', label: m.toggleDevTools } as const] : []),
        { type: 'separator' },
        { role: 'resetZoom', label: m.resetZoom },
        { role: 'zoomIn', label: m.zoomIn },
        { role: 'zoomOut', label: m.zoomOut },
        { type: 'separator' },
        { role: 'togglefullscreen', label: m.fullScreen },
      ],
    },
    {
      label: m.window,
      role: 'windowMenu',
      submenu: mac
        ? [
            { role: 'minimize', label: m.minimize },
            { role: 'zoom', label: m.zoom },
            { type: 'separator' },
            { role: 'front', label: m.front },
          ]
        : [
            { role: 'minimize', label: m.minimize },
            { role: 'close', label: m.close },
          ],
    },
    {
      label: m.help,
      role: 'help',
      submenu: [
        { id: 'open-log-folder', label: m.openLogFolder, click: openLogFolder },
        ...(mac ? [] : [{ type: 'separator' } as const, checkForUpdates, about]),
      ],
    },
  );
  return template;
}

/** Sets the menu bar (and the macOS About panel) for a language; called again when it changes. */
export function applyAppMenu(options: AppMenuOptions): void {
  const m = messagesOf(options.language);
  if ((options.mac ?? process.platform === 'darwin') && typeof app.setAboutPanelOptions === 'function') {
    app.setAboutPanelOptions({
      applicationName: PRODUCT_NAME,
      applicationVersion: app.getVersion(),
      credits: aboutDetail(m, options.noUpdateFeed ?? false),
    });
  }
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(options)));
}
