import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';

type Tree = { [key: string]: string | Tree };

/** Every leaf as [dotted key, text]. */
function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : leaves(value, `${prefix}${key}.`),
  );
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

// i18next picks key_one / key_other by {{count}}; a bare key with {{count}} reads "1 batches" in English.
// Chinese has only the "other" form, which i18next uses for every count.
describe.each([
  ['en', en as unknown as Tree, ['one', 'other']],
  ['zh-CN', zhCN as unknown as Tree, ['other']],
])('count strings in %s', (_language, messages, forms) => {
  const all = new Map(leaves(messages));

  it('all have their plural forms', () => {
    const missing: string[] = [];
    for (const [key, text] of all) {
      if (!text.includes('{{count}}')) continue;
      const base = key.replace(PLURAL_SUFFIX, '');
      if (base === key) missing.push(`${key} (no plural suffix)`);
      for (const form of forms) if (!all.has(`${base}_${form}`)) missing.push(`${base}_${form}`);
    }
    expect(missing).toEqual([]);
  });
});
