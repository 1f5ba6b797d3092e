import { defineConfig } from 'vitest/config';

/**
 * `npm run test:package`: the packaging check. It packages the built out/, so it runs after
 * `npm run build`, apart from the unit tests (whose include patterns do not reach build/).
 */
export default defineConfig({
  test: {
    include: ['build/package-check/**/*.test.ts'],
    // Every test's temporary files in one folder of the run's own, removed at its end.
    globalSetup: ['build/test-tmpdir.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Packaging is CPU-bound; one file at a time leaves a core for the rest of the machine.
    fileParallelism: false,
  },
});
