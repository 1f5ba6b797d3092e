import { chromium, type Browser, type Page } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromiumLaunchOptions } from '../e2e/playwright.config';
import type { MethodInput, MethodOutput, StudioMethod } from '../src-shared/studio-api';

const root = join(import.meta.dirname, '..');

export interface StudioProcess {
  url: string;
  /** The loopback API's origin and per-run token, for calls a script makes beside the page. */
  origin: string;
  token: string;
  /** The studio's process, for its memory. */
  pid: number;
  /** Calls the StudioApi over the loopback API, as a script would. */
  call<M extends StudioMethod>(method: M, input?: MethodInput<M>): Promise<MethodOutput<M>>;
  stop(): Promise<void>;
}

export interface StudioSession extends StudioProcess {
  page: Page;
  browser: Browser;
}

/**
 * The built studio in browser mode on a data folder (a fresh one unless `dataDir` names one, so a
 * bench can start the studio again on the same settings and thumbnails), with no window open;
 * `env` adds settings of its built-in sandbox (STUDIO_SANDBOX_*).
 */
export async function startStudio(
  options: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<StudioProcess> {
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
    [
      join(root, 'out/main/web.js'),
      '--port',
      '0',
      '--data',
      options.dataDir ?? mkdtempSync(join(tmpdir(), 'bench-studio-')),
    ],
    {
      cwd: root,
      env: { ...process.env, STUDIO_SANDBOX_TIME_SCALE: '300', LANG: 'en_US.UTF-8', ...options.env },
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
  const origin = new URL(url).origin;
  const token = new URL(url).hash.replace('#token=', '');
  const call = async <M extends StudioMethod>(method: M, input: MethodInput<M> | object = {}) => {
    const res = await fetch(`${origin}/api/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    const body = (await res.json()) as { result?: unknown; error?: unknown };
    if (!res.ok) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result as MethodOutput<M>;
  };
  return {
    url,
    origin,
    token,
    pid: child.pid!,
    call,
    async stop() {
      child.kill('SIGTERM');
      // The next session may use the same data folder: this one must be gone first.
      if (child.exitCode === null && child.signalCode === null)
        await new Promise((r) => child.once('exit', r));
    },
  };
}

/** The studio as startStudio starts it, and Debian's Chromium looking at it in a fresh profile. */
export async function openStudioSession(options: { dataDir?: string } = {}): Promise<StudioSession> {
  const studio = await startStudio(options);
  const browser = await chromium.launch(chromiumLaunchOptions);
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(studio.url);
  return {
    ...studio,
    page,
    browser,
    async stop() {
      await browser.close();
      await studio.stop();
    },
  };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** The nearest-rank 95th percentile: of 20 samples the 19th smallest, of 100 the 95th. */
export const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.95) - 1)]!;
