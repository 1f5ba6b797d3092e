import { chromium, type Browser, type Page } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromiumLaunchOptions } from '../e2e/playwright.config';

const root = join(import.meta.dirname, '..');

/** The built studio in browser mode on a fresh data folder, and Debian's Chromium looking at it. */
export async function openStudioSession(): Promise<{
  page: Page;
  browser: Browser;
  url: string;
  stop(): Promise<void>;
}> {
  if (
    !existsSync(join(root, 'out', 'main', 'web.js')) ||
    !existsSync(join(root, 'out', 'renderer', 'index.html'))
  ) {
    spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
      { cwd: root, stdio: 'inherit' },
    );
  }
  const child: ChildProcess = spawn(
    process.execPath,
    [join(root, 'out/main/web.js'), '--port', '0', '--data', mkdtempSync(join(tmpdir(), 'bench-studio-'))],
    {
      cwd: root,
      env: { ...process.env, STUDIO_SANDBOX_TIME_SCALE: '300', LANG: 'en_US.UTF-8' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on(
      'line',
      (l) => l.includes('http://') && resolve(l.slice(l.indexOf('http://'))),
    );
    child.once('exit', (code) => reject(new Error(`browser mode exited ${code}`)));
  });
  const browser = await chromium.launch(chromiumLaunchOptions);
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
  return {
    page,
    browser,
    url,
    async stop() {
      await browser.close();
      child.kill('SIGTERM');
    },
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
