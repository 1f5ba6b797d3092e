import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';
import { explanationKey } from '../studio-error';

const has = (catalog: object) => (key: string) =>
  key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalog) !==
  undefined;
const text = (catalog: object, key: string) =>
  key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], catalog) as string;

describe('error explanations say who raised the error', () => {
  it('a batch the studio does not track has its own sentence, in both languages', () => {
    const error = { code: 'STUDIO_BATCH_NOT_FOUND', source: 'studio' as const };
    for (const catalog of [en, zhCN]) {
      const key = explanationKey(error, has(catalog));
      expect(key).toBe('errors.STUDIO_BATCH_NOT_FOUND');
      expect(text(catalog, key)).not.toMatch(/gateway reported|网关返回/);
    }
    expect(text(en, 'errors.STUDIO_BATCH_NOT_FOUND')).toMatch(/profile/);
  });

  it('an unknown studio error is never put on the gateway; a gateway one still is', () => {
    const studio = explanationKey({ code: 'STUDIO_SOMETHING_NEW', source: 'studio' }, has(en));
    expect(studio).toBe('errors.unknownStudio');
    expect(text(en, studio)).not.toMatch(/gateway reported/);
    expect(text(zhCN, studio)).toMatch(/工作室/);
    expect(explanationKey({ code: 'NEW_UPSTREAM_CODE', source: 'gateway' }, has(en))).toBe('errors.unknown');
    expect(explanationKey({ code: 'ECONNRESET', source: 'network' }, has(en))).toBe('errors.unknownNetwork');
  });
});
