import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temporary folder of the test run's own, for every test and every process it starts (TMPDIR
 * is inherited), removed when the run ends: the tests make libraries, archives and data folders
 * under os.tmpdir(), and a developer running `npm test` day after day would otherwise find
 * gigabytes of them left in /tmp. Used as Vitest's and Playwright's global setup; a run that is
 * killed leaves its folder, under one recognisable name.
 */
export default function testTmpdir(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'studio-test-run-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    // Retried: a process a test ended may still be closing files in it.
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
}
