import { app, BrowserWindow, dialog, Menu, shell, type MenuItemConstructorOptions } from 'electron';
import type { TFunction } from 'i18next';
import { translatorIn } from '../../src-shared/i18n/translator';
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

/** About: the native panel on macOS, a small dialog elsewhere. */
function showAbout(language: Language, noUpdateFeed = false): void {
  const t = translatorIn(language);
  const detail = aboutDetail(t, noUpdateFeed);
  const win = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  // The name as the studio writes it in this language (app.getName() is the package's name).
  const options = {
    type: 'info' as const,
    title: t('menu.about'),
    message: t('app.title'),
    detail,
    buttons: [t('menu.ok')],
  };
  void (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options));
}

function aboutDetail(t: TFunction, noUpdateFeed: boolean): string {
  const detail = t('menu.aboutDetail', { version: app.getVersion() });
  return noUpdateFeed ? `${detail}\n${t('menu.aboutNoFeed')}` : detail;
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
  const t = translatorIn(options.language);
  const mac = options.mac ?? process.platform === 'darwin';
  const about: MenuItemConstructorOptions = mac
    ? { role: 'about', label: t('menu.about') }
    : { id: 'about', label: t('menu.about'), click: () => showAbout(options.language, options.noUpdateFeed) };
  const checkForUpdates: MenuItemConstructorOptions = {
    id: 'check-for-updates',
    label: t('menu.checkForUpdates'),
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
        { role: 'services', label: t('menu.services') },
        { type: 'separator' },
        { role: 'hide', label: t('menu.hide') },
        { role: 'hideOthers', label: t('menu.hideOthers') },
        { role: 'unhide', label: t('menu.unhide') },
        { type: 'separator' },
        { role: 'quit', label: t('menu.quit') },
      ],
    });
  }
  template.push(
    {
      label: t('menu.file'),
      submenu: [mac ? { role: 'close', label: t('menu.close') } : { role: 'quit', label: t('menu.quit') }],
    },
    {
      label: t('menu.edit'),
      submenu: [
        { role: 'undo', label: t('menu.undo') },
        { role: 'redo', label: t('menu.redo') },
        { type: 'separator' },
        { role: 'cut', label: t('menu.cut') },
        { role: 'copy', label: t('menu.copy') },
        { role: 'paste', label: t('menu.paste') },
        { role: 'selectAll', label: t('menu.selectAll') },
      ],
    },
    {
      label: t('menu.view'),
      submenu: [
        { role: 'reload', label: t('menu.reload') },
        ...(options.dev ? [{ role: 'toggleDevTools', label: t('menu.toggleDevTools') } as const] : []),
        { type: 'separator' },
        { role: 'resetZoom', label: t('menu.resetZoom') },
        { role: 'zoomIn', label: t('menu.zoomIn') },
        { role: 'zoomOut', label: t('menu.zoomOut') },
        { type: 'separator' },
        { role: 'togglefullscreen', label: t('menu.fullScreen') },
      ],
    },
    {
      label: t('menu.window'),
      role: 'windowMenu',
      submenu: mac
        ? [
            { role: 'minimize', label: t('menu.minimize') },
            { role: 'zoom', label: t('menu.zoom') },
            { type: 'separator' },
            { role: 'front', label: t('menu.front') },
          ]
        : [
            { role: 'minimize', label: t('menu.minimize') },
            { role: 'close', label: t('menu.close') },
          ],
    },
    {
      label: t('menu.help'),
      role: 'help',
      submenu: [
        { id: 'open-log-folder', label: t('menu.openLogFolder'), click: openLogFolder },
        ...(mac ? [] : [{ type: 'separator' } as const, checkForUpdates, about]),
      ],
    },
  );
  return template;
}

/** Sets the menu bar (and the macOS About panel) for a language; called again when it changes. */
export function applyAppMenu(options: AppMenuOptions): void {
  const t = translatorIn(options.language);
  if ((options.mac ?? process.platform === 'darwin') && typeof app.setAboutPanelOptions === 'function') {
    app.setAboutPanelOptions({
      applicationName: PRODUCT_NAME,
      applicationVersion: app.getVersion(),
      credits: aboutDetail(t, options.noUpdateFeed ?? false),
    });
  }
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(options)));
}
