import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { en } from '../../src-shared/i18n/en';
import { I18N_BASE_OPTIONS } from '../../src-shared/i18n/i18n-options';
import { zhCN } from '../../src-shared/i18n/zh-CN';
import { rememberTranslations } from '../i18n/remembered-t';

/** The window's messages in a fresh instance, set up as the window's own (remembering, unless told not to). */
function windowI18n(remember = true) {
  const i18n = i18next.createInstance();
  void i18n.init({
    ...I18N_BASE_OPTIONS,
    resources: { en: { translation: en } },
    lng: 'en',
    initAsync: false,
  });
  if (remember) rememberTranslations(i18n);
  return i18n;
}

describe('remembered translations', () => {
  it('gives the same texts i18next makes, plurals and numbers by their values', () => {
    const plain = windowI18n(false);
    const t = windowI18n().getFixedT('en', 'translation');
    const reference = plain.getFixedT('en', 'translation');
    for (const round of [1, 2]) {
      expect(t('library.picked'), `round ${round}`).toBe(reference('library.picked'));
      for (const count of [0, 1, 2, 5])
        expect(t('library.stars', { count })).toBe(reference('library.stars', { count }));
      expect(t('library.count', { shown: 60, count: 1_000_000 })).toBe(
        reference('library.count', { shown: 60, count: 1_000_000 }),
      );
      expect(t('library.count', { shown: 61, count: 1_000_000 })).toBe(
        reference('library.count', { shown: 61, count: 1_000_000 }),
      );
    }
    expect(t('library.count', { shown: 60, count: 1_000_000 })).toContain('1,000,000');
    expect(t('library.stars', { count: 1 })).not.toBe(t('library.stars', { count: 2 }));
  });

  it('makes a text once however often the window draws it', () => {
    const i18n = windowI18n();
    let made = 0;
    const translator = (i18n as unknown as { translator: { translate(...a: unknown[]): unknown } })
      .translator;
    const translate = translator.translate.bind(translator);
    translator.translate = (...args: unknown[]) => {
      made++;
      return translate(...args);
    };
    // Every cell of a gallery gets its own t from useTranslation, and asks the same words.
    for (let cell = 0; cell < 60; cell++) {
      const t = i18n.getFixedT(null, 'translation');
      t('library.picked');
      t('library.stars', { count: cell % 6 });
    }
    expect(made).toBe(1 + 6);
  });

  it('speaks the new language at once when the language changes', async () => {
    const i18n = windowI18n();
    const english = i18n.getFixedT(null, 'translation')('library.picked');
    i18n.addResourceBundle('zh-CN', 'translation', zhCN);
    await i18n.changeLanguage('zh-CN');
    // react-i18next asks for a t without a language: the one in force.
    const chinese = i18n.getFixedT(null, 'translation')('library.picked');
    expect(chinese).toBe(zhCN.library.picked);
    expect(chinese).not.toBe(english);
    await i18n.changeLanguage('en');
    expect(i18n.getFixedT(null, 'translation')('library.picked')).toBe(english);
  });

  it('reads messages added after a text was made', () => {
    const i18n = windowI18n();
    const t = i18n.getFixedT('en', 'translation');
    expect(t('library.picked')).toBe(en.library.picked);
    i18n.addResource('en', 'translation', 'library.picked', 'Chosen');
    expect(t('library.picked')).toBe('Chosen');
  });

  it('makes texts from objects anew every time', () => {
    const i18n = windowI18n();
    i18n.addResource('en', 'translation', 'test.who', 'by {{person.name}}');
    const t = i18n.getFixedT('en', 'translation') as unknown as (k: string, o: object) => string;
    const person = { name: 'Ana' };
    expect(t('test.who', { person })).toBe('by Ana');
    person.name = 'Wei';
    expect(t('test.who', { person })).toBe('by Wei');
  });
});
