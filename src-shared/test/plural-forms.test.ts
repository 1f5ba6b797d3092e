import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { translatorIn } from '../i18n/translator';
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

/** `{{count}}` or `{{count, number}}`: i18next picks key_one / key_other by this value. */
const COUNT = /\{\{\s*count\s*(,[^}]*)?\}\}/;

/**
 * English nouns whose form depends on the number in front of them. A number interpolated right
 * before one of them, under any name, reads "1 batches" for one of it.
 */
const COUNTED_NOUNS = [
  'attempts',
  'batches',
  'boards',
  'chunks',
  'drafts',
  'files',
  'folders',
  'images',
  'items',
  'jobs',
  'models',
  'pages',
  'prompts',
  'pushes',
  'references',
  'rows',
  'stars',
  'uploads',
];
const NUMBER_BEFORE_NOUN = new RegExp(
  String.raw`\{\{\s*(\w+)\s*(?:,[^}]*)?\}\}\s+(?:(?:reference|knowledge-base)\s+)?(${COUNTED_NOUNS.join('|')})\b`,
  'g',
);

/**
 * Variables that hold a gateway limit: fixed numbers well above one ("at most {{limit}}
 * references"), so their noun is always plural and they need no forms of their own.
 */
const FIXED_LIMITS = new Set(['limit', 'max']);

/** `$t(group.key, {"count": {{n}} })`: i18next's way to give a second number its own plural forms. */
const NESTED = /\$t\(([\w.]+)\s*(?:,\s*(\{[^)]*\}))?\s*\)/g;

/** A count string's problems, as readable lines (empty when it is right). */
function countProblems(messages: Tree, forms: string[], english: boolean): string[] {
  const all = new Map(leaves(messages));
  const problems: string[] = [];
  const hasForms = (base: string) => forms.every((form) => all.has(`${base}_${form}`));

  for (const [key, text] of all) {
    const base = key.replace(PLURAL_SUFFIX, '');
    if (COUNT.test(text)) {
      if (base === key) problems.push(`${key}: has {{count}} but no plural suffix`);
      for (const form of forms)
        if (!all.has(`${base}_${form}`)) problems.push(`${key}: ${base}_${form} is missing`);
    }
    if (english) {
      for (const [, name, noun] of text.matchAll(NUMBER_BEFORE_NOUN)) {
        if (!name || name === 'count' || FIXED_LIMITS.has(name)) continue;
        problems.push(`${key}: {{${name}}} ${noun} reads "1 ${noun}" for one; give it its plural forms`);
      }
      if (key.endsWith('_one')) {
        for (const [, name, noun] of text.matchAll(NUMBER_BEFORE_NOUN)) {
          if (name === 'count') problems.push(`${key}: the singular form says "{{count}} ${noun}"`);
        }
      }
    }
    for (const [, nested, options] of text.matchAll(NESTED)) {
      if (!nested) continue;
      const counted = options !== undefined && /"count"/.test(options);
      if (counted ? !hasForms(nested) : !all.has(nested)) {
        problems.push(`${key}: nests ${nested}, which has no ${counted ? 'plural forms' : 'text'}`);
      }
    }
  }
  return problems;
}

// Chinese has only the "other" form, which i18next uses for every count.
describe.each([
  ['en', en as unknown as Tree, ['one', 'other'], true],
  ['zh-CN', zhCN as unknown as Tree, ['other'], false],
])('count strings in %s', (_language, messages, forms, english) => {
  it('all have their plural forms, whatever their number is called', () => {
    expect(countProblems(messages, forms, english)).toEqual([]);
  });
});

describe('the plural check itself', () => {
  it('finds a count under another name, a bare {{count}}, a wrong singular and a missing nested key', () => {
    const broken: Tree = {
      batches: { totalLine: '{{batches}} batches · estimate {{estimated}}' },
      kb: { uploadLine: '{{sent}} / {{chunks, number}} chunks' },
      library: { tooMany: '{{count, number}} images are selected' },
      run: {
        confirm_one: 'This makes {{count}} batches',
        confirm_other: 'This makes {{count}} batches, each with $t(run.nope, {"count": {{images}} })',
      },
    };
    expect(countProblems(broken, ['one', 'other'], true)).toEqual([
      'batches.totalLine: {{batches}} batches reads "1 batches" for one; give it its plural forms',
      'kb.uploadLine: {{chunks}} chunks reads "1 chunks" for one; give it its plural forms',
      'library.tooMany: has {{count}} but no plural suffix',
      'library.tooMany: library.tooMany_one is missing',
      'library.tooMany: library.tooMany_other is missing',
      'run.confirm_one: the singular form says "{{count}} batches"',
      'run.confirm_other: nests run.nope, which has no plural forms',
    ]);
  });

  it('passes a limit, and a second number nested with its own forms', () => {
    const right: Tree = {
      compose: { refs: 'at most {{limit}} references' },
      run: {
        images_one: '{{count, number}} image',
        images_other: '{{count, number}} images',
        line_one: '{{count}} batch, each with $t(run.images, {"count": {{images}} })',
        line_other: '{{count}} batches, each with $t(run.images, {"count": {{images}} })',
      },
    };
    expect(countProblems(right, ['one', 'other'], true)).toEqual([]);
  });
});

describe('two numbers in one English line', () => {
  it('each number picks its own noun form', () => {
    const t = translatorIn('en');
    expect(t('run.totalLine', { batches: 1, images: 1, estimate: '$1.00' })).toBe(
      'Run total: 1 batch · 1 image · $1.00',
    );
    expect(t('run.totalLine', { batches: 2, images: 1234, estimate: '$1.00' })).toBe(
      'Run total: 2 batches · 1,234 images · $1.00',
    );
    expect(t('kb.uploadLine', { sent: 0, count: 1, inserted: 0 })).toBe('0 / 1 chunk · 0 inserted');
    expect(t('sheet.exported', { count: 1, pages: 1, path: 'a.pdf' })).toBe(
      'Contact sheet of 1 image (1 page): a.pdf',
    );
  });
});
