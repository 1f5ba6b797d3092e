import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';

// The spec lives beside the repository, in shared/spec.
const SPEC_DIR = join(import.meta.dirname, '..', '..', '..', 'shared', 'spec');
const spec = (name: string) => readFileSync(join(SPEC_DIR, name), 'utf8');

describe('error explanations', () => {
  it.skipIf(!existsSync(SPEC_DIR))(
    'explain every code of the spec and the gateway notes, in English and Chinese',
    () => {
      const codes = new Set<string>();
      for (const text of [spec('batch-image-api.md'), spec('gateway-notes.md')]) {
        for (const match of text.matchAll(/\b(BATCH_IMAGE_[A-Z_]+)\b/g)) codes.add(match[1]!);
      }
      for (const code of [
        'SAFETY_BLOCKED',
        'INVALID_ARGUMENT',
        'PROVIDER_RATE_LIMITED',
        'PROVIDER_ITEM_FAILED',
        'EMPTY_IMAGE_OUTPUT',
        'PROVIDER_RESULT_MISSING',
        'UNAUTHENTICATED',
        'RESOURCE_EXHAUSTED',
      ]) {
        codes.add(code);
      }
      expect(codes.size).toBeGreaterThan(25);
      const errorsEn = en.errors as Record<string, string>;
      const errorsZh = zhCN.errors as Record<string, string>;
      for (const code of codes) {
        expect(errorsEn[code], `${code} in English`).toBeTruthy();
        expect(errorsZh[code], `${code} in Chinese`).toMatch(/[\u4e00-\u9fff]/);
      }
    },
  );

  it('the two languages have the same keys everywhere', () => {
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    expect(keys(zhCN).sort()).toEqual(keys(en).sort());
  });
});
