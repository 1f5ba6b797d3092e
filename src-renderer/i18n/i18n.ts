import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { enAtStart, type Messages } from '../../src-shared/i18n/en';
import { I18N_BASE_OPTIONS } from '../../src-shared/i18n/i18n-options';
import { languageOfLocale } from '../../src-shared/i18n/i18n-options';
import type { Language } from '../../src-shared/settings';
import { rememberTranslations } from './remembered-t';

export function guessLanguage(): Language {
  return languageOfLocale(navigator.language);
}

/**
 * English comes with the window's first script (every language falls back to it), all but the
 * Library's strings, which come with its chunk (libraryMessagesLoaded); the other languages are
 * chunks of their own, fetched when they are the language: 34 KB of Chinese no longer delays an
 * English window, nor English a Chinese one more than that chunk.
 */
const OTHER_LANGUAGES: Record<Exclude<Language, 'en'>, () => Promise<Messages>> = {
  'zh-CN': async () => (await import('../../src-shared/i18n/zh-CN')).zhCN,
};

void i18next.use(initReactI18next).init({
  ...I18N_BASE_OPTIONS,
  resources: { en: { translation: enAtStart } },
  lng: 'en',
  initAsync: false,
});
rememberTranslations(i18next);

/** The language last asked for: a chunk arriving late never switches away from a later choice. */
let wanted: Language = 'en';

/** The Library's English strings, once asked for (en-library.ts). */
let libraryMessages: Promise<void> | undefined;
/** Whether the Library has asked for them: a window turning English then needs them. */
let libraryOpened = false;

/**
 * The Library's English strings added, fetched with the Library's chunk: the window starts without
 * them. Every language falls back to English, so they are asked for whatever the language; but a
 * window in another language has them in its own, and opens the Library without them when they do
 * not come (then asked for again once the window turns English).
 */
export function libraryMessagesLoaded(): Promise<void> {
  libraryOpened = true;
  libraryMessages ??= import('../../src-shared/i18n/en-library').then(
    ({ enLibrary }) => void i18next.addResourceBundle('en', 'translation', enLibrary, true, false),
    (err: unknown) => {
      // Asked for again next time (the host restarting).
      libraryMessages = undefined;
      throw err;
    },
  );
  return libraryMessages.catch((err: unknown) => {
    if (wanted === 'en') throw err;
  });
}

/** The language's messages loaded, and the window switched to it. */
export async function languageReady(language: Language): Promise<void> {
  wanted = language;
  // A Library opened in another language may lack its English strings: a switch to English without
  // them would show it keys (and if they still do not come, there is nothing better to show).
  if (language === 'en' && libraryOpened) await libraryMessagesLoaded().catch(() => undefined);
  if (language !== 'en' && !i18next.hasResourceBundle(language, 'translation'))
    i18next.addResourceBundle(language, 'translation', await OTHER_LANGUAGES[language]());
  if (wanted === language && i18next.language !== language) await i18next.changeLanguage(language);
}

/**
 * The language picked in this window that no settings answer has named since. Until one does, an
 * answer naming another, asked for before the pick was saved, leaves the window as picked: it turned
 * back to the language left, until the pushed change came.
 */
let picked: Language | undefined;

/** The user's pick in this window, applied at once, before main has saved it. */
export function pickLanguage(language: Language): void {
  picked = language;
  applyLanguage(language);
}

/** Main could not save the pick: the window goes back to `saved`, what main holds as last heard. */
export function pickNotSaved(saved: Language | undefined): void {
  picked = undefined;
  if (saved) applyLanguage(saved);
}

/** The language main has saved, from a settings answer or event. */
export function applySavedLanguage(language: Language): void {
  if (picked !== undefined && picked !== language) return;
  picked = undefined;
  applyLanguage(language);
}

export function applyLanguage(language: Language): void {
  // A language chunk that cannot load (the host restarting) leaves the window in English.
  void languageReady(language).catch(() => undefined);
  document.documentElement.lang = language;
}

export default i18next;
