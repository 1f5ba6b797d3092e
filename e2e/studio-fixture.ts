import sharp from 'sharp';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promptsDraft } from '../src-main/test/helpers/prompts-draft';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SCREENSHOTS = join(root, 'docs', 'screenshots');

export interface RunningStudio {
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  /** Calls the StudioApi the way a script would, over the loopback HTTP API. */
  call(method: string, input?: unknown): Promise<any>;
  /**
   * Quits the studio and starts it again on the same data folder (a new address and token), as a
   * person closing and reopening it would; `meanwhile` runs while it is closed.
   */
  restart(meanwhile?: () => void | Promise<void>): Promise<void>;
}

/** The built studio in browser mode, as `npm run web` starts it, on a fresh data folder. */
async function startStudio(
  timeScale: number,
  dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-')),
  extraEnv: Record<string, string> = {},
): Promise<{ studio: RunningStudio; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(root, 'out/main/web.js'), '--port', '0', '--data', dataDir], {
    cwd: root,
    env: {
      ...process.env,
      STUDIO_SANDBOX_TIME_SCALE: String(timeScale),
      // Items fail only where a prompt says [fail], so what the tests count is known.
      STUDIO_SANDBOX_ITEM_FAILURE_RATE: '0',
      LANG: 'en_US.UTF-8',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (l) => l.includes('http://') && resolve(l));
    child.once('exit', (code) => reject(new Error(`browser mode exited with ${code}`)));
  });
  const url = line.slice(line.indexOf('http://'));
  const origin = new URL(url).origin;
  const token = new URL(url).hash.replace('#token=', '');
  const call = async (method: string, input: unknown = {}) => {
    const res = await fetch(`${origin}/api/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    const body = (await res.json()) as { result?: unknown; error?: unknown };
    if (!res.ok) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result;
  };
  const studio: RunningStudio = {
    url,
    origin,
    token,
    dataDir,
    call,
    restart: async (meanwhile) => {
      const current = running.get(studio)!;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.kill('SIGTERM');
      await exited;
      await meanwhile?.();
      const next = await startStudio(timeScale, dataDir, extraEnv);
      const { url, origin, token, call } = next.studio;
      Object.assign(studio, { url, origin, token, call });
      running.set(studio, running.get(next.studio)!);
    },
  };
  running.set(studio, child);
  return { studio, child };
}

/** The process behind each running studio, which a restart replaces. */
const running = new WeakMap<RunningStudio, ChildProcess>();

export const test = base.extend<{
  studio: RunningStudio;
  sandboxTimeScale: number;
  studioEnv: Record<string, string>;
}>({
  /** How much faster than a real gateway the built-in sandbox runs; 300 makes a batch take seconds. */
  sandboxTimeScale: [300, { option: true }],
  /** More environment for browser mode (STUDIO_UPDATES_DEMO, say), per spec with test.use. */
  studioEnv: [{}, { option: true }],
  studio: async ({ sandboxTimeScale, studioEnv }, use) => {
    const { studio } = await startStudio(sandboxTimeScale, undefined, studioEnv);
    await use(studio);
    running.get(studio)?.kill('SIGTERM');
  },
});

export { expect };

export async function openStudio(page: Page, studio: RunningStudio): Promise<void> {
  await page.goto(studio.url);
  await expect(page.getByRole('navigation', { name: /Main navigation|主导航/ })).toBeVisible();
}

/** Opens the studio and goes to one screen by the sidebar, as a person would. */
export async function openScreen(page: Page, studio: RunningStudio, screen: string): Promise<void> {
  await openStudio(page, studio);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: screen }).click();
}

/** Pastes text into an element as a person would with Ctrl+V. */
export async function pasteText(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector).focus();
  await page.evaluate(
    ([sel, value]) => {
      const data = new DataTransfer();
      data.setData('text/plain', value!);
      document
        .querySelector(sel!)!
        .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [selector, text],
  );
}

/** Drops image files on an element, as dragging them from the file manager does. */
export async function dropFiles(
  page: Page,
  selector: string,
  files: { name: string; type: string; bytes: number[] }[],
): Promise<void> {
  await page.evaluate(
    async ({ sel, list }) => {
      const data = new DataTransfer();
      for (const f of list) data.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
      const target = document.querySelector(sel)!;
      // A hand takes a moment between entering and dropping; so does this.
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
        await new Promise((r) => setTimeout(r, 60));
      }
    },
    { sel: selector, list: files },
  );
}

/** A draft of one image per prompt, rows `r1`, `r2`…, as a script would submit it (the tests' one helper). */
export { promptsDraft };

/** Submits prompts through the local API, as a script would, and waits until the batch is in the library. */
export async function batchInLibrary(
  studio: RunningStudio,
  id: string,
  name: string,
  prompts: string[],
): Promise<string> {
  const draft = promptsDraft(id, name, prompts, (i) => `${id}-${String(i + 1).padStart(2, '0')}`);
  const { batch } = await studio.call('batches.submit', { draft });
  for (let i = 0; i < 300; i++) {
    const now = await studio.call('batches.get', { id: batch.id });
    if (now.download.state === 'done') return now.download.folder;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the batch never reached the library');
}

/** Axe, the accessibility engine, finds nothing serious or critical on the page as it is. */
export async function expectNoSeriousA11yIssues(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/** The screen in both themes, for the README, then back to following the system. */
export async function screenshotBothThemes(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.getByTestId('theme-select').selectOption(theme);
    // The choice is saved through main and applied when it comes back: wait for it, not a moment.
    // The select too: where the system's theme is this one, the page already had it, and the
    // select still said "Follow system" until main answered.
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(page.getByTestId('theme-select')).toHaveValue(theme);
    await screenshot(page, `${name}-${theme}`);
  }
  await page.getByTestId('theme-select').selectOption('system');
}

/** Saves a screenshot the README shows. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** A plain PNG of one colour, as the number array `dropFiles` takes. */
export async function pngBytes(color: string, size = 96): Promise<number[]> {
  return [
    ...(await sharp({ create: { width: size, height: size, channels: 3, background: color } })
      .png()
      .toBuffer()),
  ];
}

/** Opens the studio on Compose, with the grid ready for typing. */
/** The built-in sandbox gateway's own state, over HTTP: what a gateway would charge for. */
export async function sandboxState(studio: RunningStudio): Promise<{
  accounts: Record<string, { batches: number }>;
  referenceHashes: Record<string, Record<string, string[]>>;
}> {
  const { sandboxUrl } = (await studio.call('app.info')) as { sandboxUrl: string };
  const res = await fetch(`${sandboxUrl.replace(/\/+$/, '')}/_sandbox/state`);
  return (await res.json()) as Awaited<ReturnType<typeof sandboxState>>;
}

/** How many batches the sandbox gateway holds, over every account: what would be paid for. */
export async function batchesAtSandbox(studio: RunningStudio): Promise<number> {
  const state = await sandboxState(studio);
  return Object.values(state.accounts).reduce((sum, a) => sum + a.batches, 0);
}

/** Sets the sandbox's faults, as `POST /_sandbox/faults` lets any client. */
export async function setSandboxFaults(studio: RunningStudio, spec: string): Promise<void> {
  const { sandboxUrl } = (await studio.call('app.info')) as { sandboxUrl: string };
  const res = await fetch(`${sandboxUrl.replace(/\/+$/, '')}/_sandbox/faults`, {
    method: 'POST',
    body: JSON.stringify({ spec }),
  });
  expect(res.status).toBe(200);
}

export async function gotoCompose(page: Page, studio: RunningStudio): Promise<void> {
  await openScreen(page, studio, 'Compose');
  await expect(page.getByTestId('new-row')).toBeVisible();
}

/**
 * Records every event the studio pushes, in order, on an event stream of its own: the same stream a
 * window gets. `stop` ends it. For what passes too fast to be seen on screen without a timing bet.
 */
export function recordEvents(studio: RunningStudio): {
  events: { event: string; data: any }[];
  ready: Promise<void>;
  stop: () => void;
} {
  const abort = new AbortController();
  const events: { event: string; data: any }[] = [];
  let connected!: () => void;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  void fetch(`${studio.origin}/api/events`, {
    headers: { authorization: `Bearer ${studio.token}` },
    signal: abort.signal,
  })
    .then(async (res) => {
      connected();
      const decoder = new TextDecoder();
      const reader = res.body!.getReader();
      let carry = '';
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        const blocks = (carry + decoder.decode(read.value, { stream: true })).split('\n\n');
        carry = blocks.pop()!;
        for (const block of blocks) {
          const lines = block.split('\n');
          const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length);
          const data = lines.find((l) => l.startsWith('data: '))?.slice('data: '.length);
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      }
    })
    .catch(() => undefined);
  return { events, ready, stop: () => abort.abort() };
}
