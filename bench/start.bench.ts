// Launch to work (issue 36): from the studio's process start to the first screen taking a
// keystroke, Compose with its data in and its prompt grid typed into, in browser mode with the page
// opened the moment the address prints. Judged against, in the same run: the same page opened again
// on the now warm studio, and a bare Node server's start (a process that listens and prints its
// address). Also the first screen's script: every JS file the page loaded before it took the key,
// in bytes as served (no gzip). Electron's start is measured too where its binary is installed.
// With BENCH_START_PROFILE=1 one more start runs under --cpu-prof, and where its time went before
// its API answered is listed by package.
import { _electron, chromium, type Browser, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { findElectronBinary } from '../build/electron-binary.mjs';
import { chromiumLaunchOptions } from '../e2e/playwright.config';
import { median } from './studio-session';

const root = join(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_START_RUNS) || 5;
/** Issue 36: cold launch to work within 1.5× the warm page plus a bare server's start; script < 500 KB. */
const TARGETS = { cold_vs_warm: 1.5, first_screen_script_kb: 500 };

interface Started {
  ms: number;
  t0: number;
  url: string;
  stop: () => Promise<void>;
}

/** Starts a process and times it to its first line naming an http:// address. */
async function timeToAddress(args: string[]): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, LANG: 'en_US.UTF-8' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => l.includes('http://') && resolve(l));
    child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
  });
  const ms = performance.now() - t0;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    ms,
    t0,
    url: url.slice(url.indexOf('http://')),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const BARE =
  "require('node:http').createServer((q, s) => s.end('<!doctype html><title>empty</title>')).listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port + '/'); })";

/**
 * Opens the studio's page and waits until Compose takes a key: its draft shown (the new-row box
 * is drawn only then), a letter typed into it, and that letter in the grid's first new row. The
 * JS files that arrived before then are the first screen's script.
 */
async function untilComposeTakesAKey(
  browser: Browser,
  url: string,
): Promise<{ page: Page; scriptBytes: number; scripts: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The moment Compose's new-row box is in the page: the files asked for before it are the first
  // screen's; the other screens' chunks, fetched once the window is idle, come after.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('[data-testid="new-row"]')) return;
      (window as unknown as { composeAt: number }).composeAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(url);
  const newRow = page.getByTestId('new-row');
  await newRow.focus();
  await page.keyboard.type('x');
  await page.getByRole('grid').locator('textarea[data-col="1"]').last().waitFor();
  const scripts = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter(
        (e) => e.name.endsWith('.js') && e.startTime < (window as unknown as { composeAt: number }).composeAt,
      )
      .map((e) => ({ name: new URL(e.name).pathname, bytes: e.encodedBodySize })),
  );
  const scriptBytes = scripts.reduce((a, s) => a + s.bytes, 0);
  return { page, scriptBytes, scripts: scripts.map((s) => s.name) };
}

// A first start makes the data folder and its settings; each timed start gets a copy of it, so
// every run opens the same studio (a person's second day), whatever the run before typed.
const template = mkdtempSync(join(tmpdir(), 'bench-start-'));
const studioArgs = (dataDir: string) => [join(root, 'out/main/web.js'), '--port', '0', '--data', dataDir];
await (await timeToAddress(studioArgs(template))).stop();

const floor: number[] = [];
const address: number[] = [];
const cold: number[] = [];
const warm: number[] = [];
let scriptBytes = 0;
let scripts: string[] = [];
const browser = await chromium.launch(chromiumLaunchOptions);
for (let run = 0; run < RUNS; run++) {
  const bare = await timeToAddress(['-e', BARE]);
  floor.push(bare.ms);
  await bare.stop();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-run-'));
  cpSync(template, dataDir, { recursive: true });
  const started = await timeToAddress(studioArgs(dataDir));
  address.push(started.ms);
  // Cold: the page opened as soon as the address printed, as a person clicks it.
  const first = await untilComposeTakesAKey(browser, started.url);
  cold.push(performance.now() - started.t0);
  scriptBytes = first.scriptBytes;
  scripts = first.scripts;
  await first.page.context().close();
  // Warm: the same page opened again on the studio now started, in a fresh browser context (no
  // cache) as the cold one: only the studio's warmth differs.
  const t0 = performance.now();
  const again = await untilComposeTakesAKey(browser, started.url);
  warm.push(performance.now() - t0);
  await again.page.context().close();
  await started.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
await browser.close();

/** Electron: app start to its window showing Compose taking a key, where the binary is installed. */
const electronBinary = findElectronBinary();
const electronMs: number[] = [];
if (!electronBinary) {
  console.log('Electron: its binary is not installed on this machine; that figure is skipped.');
} else {
  for (let run = 0; run < Math.min(RUNS, 3); run++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-electron-'));
    cpSync(template, dataDir, { recursive: true });
    const t0 = performance.now();
    const app = await _electron.launch({
      executablePath: electronBinary,
      args: [join(root, 'out/main/index.js'), '--no-sandbox'],
      env: { ...process.env, LANG: 'en_US.UTF-8', STUDIO_DATA_DIR: dataDir },
    });
    const window = await app.firstWindow();
    await window.getByTestId('new-row').focus();
    await window.keyboard.type('x');
    await window.getByRole('grid').locator('textarea[data-col="1"]').last().waitFor();
    electronMs.push(performance.now() - t0);
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const byPackage = new Map<string, number>();
if (process.env.BENCH_START_PROFILE === '1') {
  const dir = mkdtempSync(join(tmpdir(), 'bench-start-prof-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-run-'));
  cpSync(template, dataDir, { recursive: true });
  const profiled = await timeToAddress(['--cpu-prof', '--cpu-prof-dir', dir, ...studioArgs(dataDir)]);
  const { origin, hash } = new URL(profiled.url);
  let readyMs = 0;
  while (!readyMs) {
    const res = await fetch(`${origin}/api/settings.get`, {
      method: 'POST',
      headers: { authorization: `Bearer ${hash.replace('#token=', '')}`, 'content-type': 'application/json' },
      body: '{}',
    }).catch(() => null);
    if (res?.ok) readyMs = performance.now() - profiled.t0;
  }
  await profiled.stop();
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    nodes: { id: number; callFrame: { url: string; functionName: string } }[];
    samples: number[];
    timeDeltas: number[];
  };
  const urlOf = new Map(profile.nodes.map((n) => [n.id, n.callFrame.url || `(${n.callFrame.functionName})`]));
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i]! / 1000;
    if (at > readyMs) return;
    const url = urlOf.get(id) ?? '?';
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      (url.includes('/out/main/') ? 'studio' : url.startsWith('node:') ? 'node:*' : url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + profile.timeDeltas[i]! / 1000);
  });
  console.log(`where a start's time went, to its API answering (${readyMs.toFixed(0)} ms, profiled):`);
  for (const [pkg, ms] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${ms.toFixed(0).padStart(5)} ms  ${pkg}`);
}
rmSync(template, { recursive: true, force: true });

const list = (xs: number[]) => xs.map((t) => t.toFixed(0)).join(' / ');
const f = median(floor);
const c = median(cold);
const w = median(warm);
const budget = TARGETS.cold_vs_warm * w + f;
const kb = scriptBytes / 1000;
const load = loadavg().map((l) => l.toFixed(2));
console.log(`machine load (1, 5, 15 min): ${load.join(', ')}`);
console.log(`bare Node server to its address: ${list(floor)} ms`);
console.log(`studio to its address: ${list(address)} ms`);
console.log(`launch to work, cold (process start → Compose takes a key): ${list(cold)} ms`);
console.log(`the same page again on the warm studio: ${list(warm)} ms`);
console.log(
  `cold ${c.toFixed(0)} ms against ${TARGETS.cold_vs_warm} × warm ${w.toFixed(0)} + bare ${f.toFixed(0)} = ${budget.toFixed(0)} ms`,
);
if (electronMs.length) console.log(`Electron, app start → Compose takes a key: ${list(electronMs)} ms`);
console.log(`first screen's script: ${kb.toFixed(1)} KB in ${scripts.length} files: ${scripts.join(' ')}`);
console.log(
  JSON.stringify({
    bench: 'start',
    figures: {
      launch_to_work_cold_ms: Math.round(c),
      launch_to_work_warm_ms: Math.round(w),
      bare_node_start_ms: Math.round(f),
      cold_budget_ms: Math.round(budget),
      address_ms: Math.round(median(address)),
      first_screen_script_kb: Number(kb.toFixed(1)),
      electron_launch_to_work_ms: electronMs.length ? Math.round(median(electronMs)) : null,
      runs: RUNS,
      load,
    },
    targets: TARGETS,
    pass: c <= budget && kb < TARGETS.first_screen_script_kb,
    trace_top: Object.fromEntries(
      [...byPackage]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([k, v]) => [k, Math.round(v)]),
    ),
  }),
);
