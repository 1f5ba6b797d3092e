import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * One layer rule: importing a module matching any of these patterns (gitignore-style globs, or a
 * RegExp for bare package names) is an error, with the reason given.
 */
function forbidImports(...rules) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: rules.map(([pattern, message]) =>
          pattern instanceof RegExp ? { regex: pattern.source, message } : { group: pattern, message },
        ),
      },
    ],
  };
}

const ELECTRON_ONLY = [
  /^electron(-store)?(\/.*)?$/,
  'Only src-main/electron (and the preload) may import electron; services use conf through key-value-store.',
];

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'coverage', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read wire answers as plain JSON.
    files: ['**/test/**/*.ts', '**/*.test.ts', 'e2e/**/*.ts'],
    // Playwright fixtures take an empty pattern when they need no other fixture.
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-empty-pattern': 'off' },
  },
  {
    // Services are plain Node, so the web host, the tests and the benches run them without electron.
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['src-main/electron/**', 'src-preload/**'],
    rules: forbidImports(ELECTRON_ONLY),
  },
  {
    // The renderer reaches the studio only through the StudioApi contract, in a window or a browser.
    files: ['src-renderer/**/*.{ts,tsx}'],
    // A renderer unit test (src-renderer/test/) may start the real services to drive its code against them.
    ignores: ['src-renderer/test/**'],
    rules: forbidImports(ELECTRON_ONLY, [
      ['**/src-main/**', '**/sandbox/**', 'node:*'],
      'The renderer talks to the studio through StudioApi (src-shared/studio-api.ts), never to src-main or the sandbox.',
    ]),
  },
  {
    // Shared code runs on both sides of the bridge, so it may need neither Node nor either side.
    files: ['src-shared/**/*.ts'],
    ignores: ['src-shared/test/**'],
    rules: forbidImports(ELECTRON_ONLY, [
      ['**/src-main/**', '**/src-renderer/**', '**/sandbox/**', 'node:*'],
      'src-shared holds the contract both sides agree on: no Node, no studio side, no sandbox.',
    ]),
  },
  {
    // The sandbox must not agree with the studio on a shared mistake, so it may not import studio code.
    files: ['sandbox/**/*.ts'],
    rules: forbidImports(ELECTRON_ONLY, [
      ['**/src-main/**', '**/src-shared/**', '**/src-renderer/**'],
      'The sandbox shares no code with the studio.',
    ]),
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      'react-hooks/exhaustive-deps': 'error',
      // The React Compiler is not in the build; these of its rules would ask for rewrites of
      // working screens (state reset on prop change, latest-value refs) with nothing gained today.
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/refs': 'off',
      // Only says the compiler would skip components using TanStack Virtual; there is no compiler.
      'react-hooks/incompatible-library': 'off',
    },
  },
);
