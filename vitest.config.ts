import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'sandbox/**/*.test.ts',
      'src-main/**/*.test.ts',
      'src-shared/**/*.test.ts',
      'src-renderer/**/*.test.ts',
      // The start script on a fresh copy and the native binary check; the packaging check runs after the build, not here.
      'build/test/*.test.ts',
    ],
    // Every test's temporary files in one folder of the run's own, removed at its end.
    globalSetup: ['build/test-tmpdir.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
