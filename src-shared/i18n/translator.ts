import i18next, { type i18n, type InitOptions, type TFunction } from 'i18next';
import type { Language } from '../settings';
import { en } from './en';
import { I18N_BASE_OPTIONS } from './i18n-options';
import { zhCN } from './zh-CN';

/**
 * How the studio's messages are looked up and filled in, the same in the window (the renderer's
 * i18n.ts) and outside it, so a `{{name}}`, a plural form or a language falls back alike everywhere.
 */
const I18N_OPTIONS = {
  ...I18N_BASE_OPTIONS,
  resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
} satisfies InitOptions;

let outsideWindow: i18n | undefined;

/**
 * `t` in one language for what the main process says itself (menus, dialogs, notifications,
 * contact sheets), where the window's i18next instance is out of reach. One instance serves every
 * language; made at first use, with its resources given inline, so it is ready at once.
 */
export function translatorIn(language: Language): TFunction {
  if (!outsideWindow) {
    outsideWindow = i18next.createInstance();
    void outsideWindow.init({ ...I18N_OPTIONS, lng: 'en', initAsync: false });
  }
  return outsideWindow.getFixedT(language);
}
