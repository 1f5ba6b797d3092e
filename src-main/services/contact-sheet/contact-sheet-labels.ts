import { translatorIn } from '../../../src-shared/i18n/translator';
import type { Language } from '../../../src-shared/settings';
import { timeStampedName } from '../storage/file-names';
import type { ContactSheetLabels } from './contact-sheet';

/** The sheet's words and dates in the studio's language: a client in Shanghai reads Chinese. */
export function contactSheetLabels(
  language: Language,
  me = '',
): ContactSheetLabels & { defaultTitle: string } {
  const t = translatorIn(language);
  const dates = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric' });
  return {
    defaultTitle: t('contactSheet.defaultTitle'),
    picked: t('contactSheet.picked'),
    rejected: t('contactSheet.rejected'),
    pickedBy: (names) => t('contactSheet.pickedBy', { names: names.join(t('team.separator')) }),
    me: me || t('team.you'),
    earlier: t('team.earlier'),
    batches: (names) =>
      names.length === 1
        ? t('contactSheet.batch', { name: names[0]! })
        : t('contactSheet.batches', { count: names.length }),
    page: (page, pages) => t('contactSheet.page', { page, pages }),
    date: (seconds) => dates.format(new Date(seconds * 1000)),
  };
}

/** `contact-sheet-2026-05-04-13-45-10.pdf`: sorts by time, safe on every file system. */
export function contactSheetName(at = new Date()): string {
  return timeStampedName('contact-sheet', 'pdf', at);
}
