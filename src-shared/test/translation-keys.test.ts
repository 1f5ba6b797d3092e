import { describe, expect, it } from 'vitest';
import { en, type Messages } from '../i18n/en';
import { isMessageKey, isMessageName } from '../i18n/message-keys';
import { translatorIn } from '../i18n/translator';
import { zhCN } from '../i18n/zh-CN';

// The typecheck is half of this file: every `@ts-expect-error` below must stay an error, or
// `npm run typecheck` fails. So a misspelled key, or a language missing or adding a key, cannot
// type-check anywhere.
describe('translation keys', () => {
  it('a real key translates; a misspelled one does not type-check', async () => {
    const t = translatorIn('en');
    expect(t('menu.about')).toBe('About Batch Image Studio');
    expect(t('library.problems', { count: 2 })).toBe(en.library.problems_other.replace('{{count}}', '2'));
    // @ts-expect-error: "abuot" is no key of en.ts; i18next would show the key itself.
    expect(t('menu.abuot')).toBe('menu.abuot');
    // @ts-expect-error: a defaultValue does not excuse a missing key (strictKeyChecks).
    expect(t('menu.abuot', { defaultValue: 'About' })).toBe('About');
  });

  it('every language has exactly the English keys', async () => {
    const t = translatorIn('zh-CN');
    expect(t('menu.about')).toBe(zhCN.menu.about);
    // @ts-expect-error: a language missing a key is not Messages.
    const missing: Messages['app'] = { title: '批量图像工作室' };
    // @ts-expect-error: nor is one with a key English does not have.
    const extra: Messages['app'] = { title: '', skipToContent: '', skipToMain: '' };
    expect([missing, extra]).toHaveLength(2);
  });

  it('a key built at run time is a key only once its value is known to name a message', async () => {
    const t = translatorIn('en');
    const status: string = 'processing_results';
    // @ts-expect-error: any string could follow "status.", so this is not known to be a key.
    expect(t(`status.${status}`)).toBe('Processing results');
    if (!isMessageName('status', status)) throw new Error('processing_results is a status');
    expect(t(`status.${status}`)).toBe('Processing results');
    expect(isMessageName('status', 'no_such_status')).toBe(false);
    // Inherited properties are not messages.
    expect(isMessageName('status', 'toString')).toBe(false);
    expect(isMessageKey('errors', 'errors.HTTP_503')).toBe(true);
    expect(isMessageKey('errors', 'errors.HTTP_418')).toBe(false);
    expect(isMessageKey('errors', 'status.queued')).toBe(false);
  });
});
