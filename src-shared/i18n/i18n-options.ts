import type { InitOptions } from 'i18next';

/** The languages the studio speaks (settings.ts validates with them; no zod here, issue 36). */
export const LANGUAGES = ['en', 'zh-CN'] as const;

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
