import { z } from 'zod';
import type { Language } from './settings';

/**
 * How the studio looks for its updates (VS Code's `update.mode`): never; only when asked (the menu
 * item or Settings); once, soon after start; or at start and every few hours (the default).
 */
export const updateModeSchema = z.enum(['off', 'manual', 'start', 'automatic']);
export type UpdateMode = z.infer<typeof updateModeSchema>;

/** `beta` also offers pre-releases (1.2.0-beta.1); `latest` only releases. */
export const updateChannelSchema = z.enum(['latest', 'beta']);

export const updatePreferencesSchema = z
  .object({
    mode: updateModeSchema,
    channel: updateChannelSchema,
    /** Install a downloaded update when the studio quits; off unless the person turns it on. */
    installOnQuit: z.boolean(),
  })
  .strict();
export type UpdatePreferences = z.infer<typeof updatePreferencesSchema>;

/**
 * Whether this copy can update itself, and if not why, so Settings and About can say it in words:
 * `no-feed`, a build made without an update address; `browser`, browser mode (shown but inert);
 * `package-manager`, a deb install, which apt updates (`detail` holds the command); `unwritable`, an
 * install location the studio cannot write to (`detail` holds the path); `demo`, browser mode
 * showing the update flow with a made-up version, for tests and screenshots; nothing installs.
 */
export const updateAvailabilitySchema = z.object({
  kind: z.enum(['ready', 'no-feed', 'browser', 'package-manager', 'unwritable', 'demo']),
  detail: z.string().optional(),
});
export type UpdateAvailability = z.infer<typeof updateAvailabilitySchema>;

/** Release notes as the feed gives them, per language; `any` when the notes were written once for all. */
export const releaseNotesSchema = z.object({
  en: z.string().optional(),
  'zh-CN': z.string().optional(),
  any: z.string().optional(),
} satisfies Record<Language | 'any', z.ZodType>);
export type ReleaseNotes = z.infer<typeof releaseNotesSchema>;

/** The work a restart would cut short; the update waits until each count is 0. */
export const workInProgressSchema = z.object({
  downloads: z.number().int().min(0),
  submissions: z.number().int().min(0),
  kbUploads: z.number().int().min(0),
});
export type WorkInProgress = z.infer<typeof workInProgressSchema>;

export const updateStatusSchema = z.object({
  availability: updateAvailabilitySchema,
  preferences: updatePreferencesSchema,
  /** `downloading`, then `ready` (downloaded and verified): what the banner offers. */
  phase: z.enum(['idle', 'checking', 'downloading', 'ready', 'error']),
  currentVersion: z.string(),
  /** The newer version found, while it downloads and once it is ready. */
  offer: z
    .object({
      version: z.string(),
      notes: releaseNotesSchema,
      releaseDate: z.string().optional(),
      /** 0–100 while downloading. */
      percent: z.number().min(0).max(100).optional(),
    })
    .optional(),
  /** The last check's result: none found (`upToDate`) is worth saying after a check the person asked for. */
  lastCheck: z
    .object({ at: z.number().int(), outcome: z.enum(['found', 'upToDate', 'skipped', 'failed']) })
    .optional(),
  nextCheckAt: z.number().int().optional(),
  /** The banner was put away with "Later"; it comes back with the next version or the next start. */
  dismissed: z.boolean(),
  skippedVersion: z.string().optional(),
  /** "Restart now" was pressed while work ran: the restart happens when `waitingFor` is all 0. */
  restartPending: z.boolean(),
  waitingFor: workInProgressSchema,
  /** Why the last check or download failed, for the person to read. */
  error: z.string().optional(),
});
export type UpdateStatus = z.infer<typeof updateStatusSchema>;

/** Is any work running that a restart would interrupt? */
export function isBusy(work: WorkInProgress): boolean {
  return work.downloads + work.submissions + work.kbUploads > 0;
}

const none = z.object({}).strict();

/** The contract's update methods (studio-api.ts spreads them into studioMethods). */
export const updateMethods = {
  /** Updates of the installed studio: what was found, what it waits for, and the preferences. */
  'updates.status': { input: none, output: updateStatusSchema },
  /** "Check for Updates…": a check now, whatever the schedule (none when updates are off). */
  'updates.check': { input: none, output: updateStatusSchema },
  'updates.setPreferences': { input: updatePreferencesSchema.partial().strict(), output: updateStatusSchema },
  /**
   * "Restart now": installs the downloaded update and restarts, at once when nothing runs; while a
   * batch downloads, a submission is sent or a KB upload runs, it waits (`restartPending`) and
   * `waitingFor` says for what. Browser mode answers the status unchanged: nothing installs there.
   */
  'updates.restart': { input: none, output: updateStatusSchema },
  /** "Later": puts the banner away (and a waiting restart off) until the next version or start. */
  'updates.later': { input: none, output: updateStatusSchema },
  /** "Skip this version": not offered again; a later version is. */
  'updates.skip': { input: none, output: updateStatusSchema },
} as const;
