import type { InitOptions } from 'i18next';

/** The languages the studio speaks (settings.ts validates with them; no zod here, issue 36). */
export const LANGUAGES = ['en', 'zh-CN'] as const;
type Language = (typeof LANGUAGES)[number];

/** A saved or sent value, when it is a language this version speaks. */
export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

/**
 * The language to start in for a locale (`zh-TW`, `zh_CN.UTF-8`, `en-GB`): any Chinese reads the
 * Simplified Chinese studio, everything else the English one. The one guess, for the window, main
 * and a failed start alike.
 */
export function languageOfLocale(locale: string | undefined): Language {
  return /^zh/i.test(locale ?? '') ? 'zh-CN' : 'en';
}

/**
 * How messages are looked up and filled in, without the messages: the window loads English with
 * its first script and other languages when chosen, so it must not import them all (translator.ts).
 */
export const I18N_BASE_OPTIONS = {
  fallbackLng: 'en',
  // Messages go into React text, native dialogs, notifications and PDFs, never into HTML.
  interpolation: { escapeValue: false },
  returnNull: false,
} satisfies InitOptions;
