import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
    // The sandbox must not agree with the studio on a shared mistake, so it may not import studio code.
    files: ['sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src-main/**', '**/src-shared/**', '**/src-renderer/**'],
              message: 'The sandbox shares no code with the studio.',
            },
          ],
        },
      ],
    },
  },
);
