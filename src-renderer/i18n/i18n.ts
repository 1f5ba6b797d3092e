import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { I18N_OPTIONS } from '../../src-shared/i18n/translator';
import type { Language } from '../../src-shared/settings';

export function guessLanguage(): Language {
  return /^zh/i.test(navigator.language) ? 'zh-CN' : 'en';
}

void i18next.use(initReactI18next).init({ ...I18N_OPTIONS, lng: guessLanguage() });

export function applyLanguage(language: Language): void {
  if (i18next.language !== language) void i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export default i18next;
