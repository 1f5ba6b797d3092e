import { en } from '../../../src-shared/i18n/en';
import { zhCN } from '../../../src-shared/i18n/zh-CN';
import type { Language } from '../../../src-shared/settings';
import type { ContactSheetLabels } from './contact-sheet';

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));

/** The sheet's words and dates in the studio's language: a client in Shanghai reads Chinese. */
export function contactSheetLabels(language: Language): ContactSheetLabels & { defaultTitle: string } {
  const m = (language === 'zh-CN' ? zhCN : en).contactSheet;
  const dates = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric' });
  return {
    defaultTitle: m.defaultTitle,
    picked: m.picked,
    rejected: m.rejected,
    batches: (names) =>
      names.length === 1
        ? fill(m.batch, { name: names[0]! })
        : fill(names.length === 1 ? m.batches_one : m.batches_other, { count: names.length }),
    page: (page, pages) => fill(m.page, { page, pages }),
    date: (seconds) => dates.format(new Date(seconds * 1000)),
  };
}

/** `contact-sheet-2026-05-04-13-45-10.pdf`: sorts by time, safe on every file system. */
export function contactSheetName(at = new Date()): string {
  return `contact-sheet-${at.toISOString().slice(0, 19).replace(/[:T]/g, '-')}.pdf`;
}
