import { z } from 'zod';
import { LANGUAGES } from './i18n/i18n-options';
import { personNameSchema } from './person';

export const languageSchema = z.enum(LANGUAGES);
export type Language = z.infer<typeof languageSchema>;

// Free of zod in i18n-options.ts, for the window's first screen (issue 36); main reads them here.
export { isLanguage, languageOfLocale, LANGUAGES } from './i18n/i18n-options';

export const themeSchema = z.enum(['system', 'light', 'dark']);
export type ThemePreference = z.infer<typeof themeSchema>;

export const settingsSchema = z.object({
  language: languageSchema,
  theme: themeSchema,
  /** Where downloaded batches are kept, one folder per batch. */
  libraryDir: z
    .string()
    .min(1)
    .max(4096)
    .refine((dir) => !dir.includes('\0'), 'A folder path cannot hold a NUL character.'),
  autoDownload: z.boolean(),
  notifications: z.boolean(),
  activeProfileId: z.string(),
  /** This install's person: an id made once, and a display name shown to the team. */
  personId: z.string().min(1),
  personName: personNameSchema,
});
export type Settings = z.infer<typeof settingsSchema>;

export const settingsPatchSchema = settingsSchema
  .omit({ activeProfileId: true, personId: true })
  .partial()
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
