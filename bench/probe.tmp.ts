import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromiumLaunchOptions } from '../e2e/playwright.config';
const dir = mkdtempSync(join(tmpdir(), 'probe-'));
const browser = await chromium.launch(chromiumLaunchOptions);
for (const pass of [0, 1]) {
const t0 = performance.now();
const child = spawn(process.execPath, ['out/main/web.js', '--port', '0', '--data', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise<string>((r) => createInterface({ input: child.stdout! }).on('line', (l) => l.includes('http://') && r(l.slice(l.indexOf('http://')))));
const at = () => (performance.now() - t0).toFixed(0).padStart(5);
console.log(at(), 'address');
const page = await browser.newPage();
page.on('request', (q) => pass && console.log(at(), '>', new URL(q.url()).pathname));
page.on('requestfinished', (q) => pass && console.log(at(), '<', new URL(q.url()).pathname));
await page.goto(url);
await page.getByTestId('new-row').waitFor();
console.log(at(), 'new-row');
await page.close();
child.kill(); await new Promise((r) => child.once('exit', r));
}
await browser.close();
