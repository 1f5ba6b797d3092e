import type { TFunction } from 'i18next';
import type { ReleaseNotes, UpdateStatus, WorkInProgress } from './updates';

// Updates in words, one wording for every place that says them: Settings and the banner in the
// window, the dialog after the menu's "Check for Updates…" in the desktop app.

/**
 * Why this copy checks nothing or installs nothing, in words; undefined when it updates itself.
 * Settings shows it, and the banner too in browser mode (where the banner is shown but inert).
 */
export function availabilityText(t: TFunction, status: UpdateStatus): string | undefined {
  const { kind, detail } = status.availability;
  switch (kind) {
    case 'ready':
      return undefined;
    case 'no-feed':
      return t('updates.noFeed');
    case 'browser':
      return t('updates.browser');
    case 'demo':
      return t('updates.demo');
    case 'package-manager':
      return t('updates.packageManager', { command: detail ?? '' });
    case 'unwritable':
      return t('updates.unwritable', { path: detail ?? '' });
  }
}

/** "a batch download and 2 knowledge-base uploads": what a waiting restart waits for. */
export function workText(t: TFunction, work: WorkInProgress): string {
  const parts = [
    work.downloads > 0 && t('updates.workDownloads', { count: work.downloads }),
    work.submissions > 0 && t('updates.workSubmissions', { count: work.submissions }),
    work.kbUploads > 0 && t('updates.workKbUploads', { count: work.kbUploads }),
  ].filter((part): part is string => typeof part === 'string');
  return parts.join(t('updates.workJoin'));
}

/** What the last check found, when there is something to say about it. */
export function lastCheckText(t: TFunction, status: UpdateStatus): string | undefined {
  if (status.phase === 'checking') return t('updates.checking');
  if (status.phase === 'error' && status.error) return t('updates.failed', { error: status.error });
  switch (status.lastCheck?.outcome) {
    case 'upToDate':
      return t('updates.upToDate', { version: status.currentVersion });
    case 'skipped':
      return t('updates.skipped', { version: status.skippedVersion ?? '' });
    default:
      return undefined;
  }
}

/**
 * What a check asked for from the menu found, for the dialog that answers it; undefined when an
 * update was found, since the banner then shows it. Always says something else: the person asked.
 */
export function menuCheckText(t: TFunction, status: UpdateStatus): string | undefined {
  if (status.phase === 'downloading' || status.phase === 'ready') return undefined;
  const cannot = availabilityText(t, status);
  if (cannot) return cannot;
  if (status.preferences.mode === 'off') return t('updates.off');
  // Even without a message (Settings then says nothing), a failed check is not "up to date".
  if (status.phase === 'error') return t('updates.failed', { error: status.error ?? '' });
  return lastCheckText(t, status) ?? t('updates.upToDate', { version: status.currentVersion });
}

/** The notes in a language: its own part, else the part for every language, else the English one. */
export function notesIn(notes: ReleaseNotes, language: 'en' | 'zh-CN'): string {
  return notes[language] ?? notes.any ?? notes.en ?? '';
}
