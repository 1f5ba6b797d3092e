import type { en } from './en';

// i18next's own typing: every t('…') key is checked against English, so a misspelled or removed key
// fails the typecheck (zh-CN.ts is held to the same keys by its Messages type). A key built at run
// time narrows its value first (message-keys.ts). strictKeyChecks: a defaultValue does not excuse a
// key that does not exist.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    returnNull: false;
    strictKeyChecks: true;
  }
}
