import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { startBrowserMode } from '../../web/browser-mode';

/**
 * Browser mode as the tests drive it: the real web host and services with a fresh data folder
 * (`studio-<name>-…`), a one-page stand-in for the built renderer (plus any `files` it should serve,
 * by path), and the sandbox at 1000× real time; both closed after the tests of the file or block.
 */
export async function startTestBrowserMode(name: string, files: Record<string, string> = {}) {
  const rendererDir = mkdtempSync(join(tmpdir(), 'studio-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(rendererDir, path)), { recursive: true });
    writeFileSync(join(rendererDir, path), text);
  }
  const started = await startBrowserMode({
    port: 0,
    dataDir: mkdtempSync(join(tmpdir(), `studio-${name}-`)),
    rendererDir,
    sandboxTimeScale: 1000,
  });
  afterAll(async () => {
    await started.host.close();
    await started.services.close();
  });
  return started;
}
