import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '../../src-shared/i18n/en';
import { zhCN } from '../../src-shared/i18n/zh-CN';
import type { Language } from '../../src-shared/settings';

export function guessLanguage(): Language {
  return /^zh/i.test(navigator.language) ? 'zh-CN' : 'en';
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
  lng: guessLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function applyLanguage(language: Language): void {
  if (i18next.language !== language) void i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

export default i18next;
