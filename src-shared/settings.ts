import { z } from 'zod';

export const LANGUAGES = ['en', 'zh-CN'] as const;
export const languageSchema = z.enum(LANGUAGES);
export type Language = z.infer<typeof languageSchema>;

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
});
export type Settings = z.infer<typeof settingsSchema>;

export const settingsPatchSchema = settingsSchema.omit({ activeProfileId: true }).partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
