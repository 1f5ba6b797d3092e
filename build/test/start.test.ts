// `npm start` as a new user meets it: a fresh copy with no out/, no Electron binary, and a download
// that cannot get through. It must build, try Electron's installer, give up quickly with one line
// that says why and how to fetch the binary later, and serve the studio in browser mode.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { installElectron } from '../electron-install.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cleanup: (() => void)[] = [];
afterAll(() => cleanup.forEach((fn) => fn()));

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * What a fresh clone holds: the files git tracks, plus new ones not yet committed (so the test runs
 * the code as it stands), never what .gitignore keeps out (out/, dist/, caches, test output).
 */
function copyCheckout(target: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString()
    .split('\0')
    .filter(Boolean);
  for (const file of new Set(files)) {
    const from = join(root, file);
    // A tracked file deleted in the working tree is not part of the code as it stands.
    const stat = lstatSync(from, { throwIfNoEntry: false });
    if (!stat || stat.isDirectory()) continue;
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(from, join(target, file), { verbatimSymlinks: true });
  }
}

/** A loopback port that nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Collects a child's output lines until one matches, or the child exits. */
function waitForLine(child: ChildProcess, pattern: RegExp, seen: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const onLine = (line: string) => {
      seen.push(line);
      if (pattern.test(line)) resolve(line);
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${seen.join('\n')}`)));
  });
}

describe('npm start on a fresh copy', () => {
  it('builds, fails to fetch Electron quickly, says why in one line and serves browser mode', async () => {
    const copy = join(tempDir('studio-fresh-'), 'studio');
    copyCheckout(copy);
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    expect(existsSync(join(copy, 'package.json'))).toBe(true);
    expect(existsSync(join(copy, 'out'))).toBe(false);
    // The missing binary, made so rather than found so: Electron's dist is looked for in an empty
    // folder, so a machine with the binary installed takes the same path as this one.
    const noElectron = tempDir('studio-no-electron-');

    const port = await closedPort();
    const child = spawn(
      'npm',
      ['start', '--silent', '--', '--port', '0', '--data', tempDir('studio-data-')],
      {
        cwd: copy,
        env: {
          ...process.env,
          // A display, so the start script wants the desktop window and goes for the binary.
          DISPLAY: ':97',
          // The download goes to a mirror that refuses connections, and a cache of its own.
          ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
          electron_config_cache: tempDir('studio-electron-cache-'),
          ELECTRON_OVERRIDE_DIST_PATH: noElectron,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    cleanup.push(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    });
    const seen: string[] = [];
    const line = await waitForLine(child, /browser mode\): http:\/\//, seen);

    const reason = seen.find((l) => l.includes('could not be downloaded'));
    expect(reason, seen.join('\n')).toMatch(/ECONNREFUSED/);
    expect(reason).toContain('starting browser mode instead');
    expect(reason).toContain('npx install-electron');
    expect(seen.some((l) => l.includes('Fetching Electron'))).toBe(true);
    expect(seen.join('\n')).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(join(copy, 'out', 'renderer', 'index.html'))).toBe(true);

    const url = line.slice(line.indexOf('http://'));
    const page = await fetch(url.split('#')[0]!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  }, 300_000);
});

describe("Electron's download", () => {
  let server: Server | undefined;
  afterAll(() => server?.close());

  it('says how to go through a proxy when one is set but not used for the download', async () => {
    const saved = { ...process.env };
    process.env.ELECTRON_MIRROR = `http://127.0.0.1:${await closedPort()}/`;
    process.env.electron_config_cache = tempDir('studio-electron-cache-');
    process.env.HTTPS_PROXY = 'http://proxy.invalid:3128';
    delete process.env.ELECTRON_GET_USE_PROXY;
    const out = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
    try {
      const result = await installElectron({ root, out });
      expect(result).toEqual({
        ok: false,
        reason: expect.stringMatching(
          /^Electron could not be downloaded \(network error ECONNREFUSED; behind a proxy, set ELECTRON_GET_USE_PROXY=1\)$/,
        ),
      });
    } finally {
      process.env = saved;
    }
  });

  it('gives up on a transfer that stalls, with a reason, instead of hanging', async () => {
    // A mirror that starts sending a 100 MB archive and then goes silent.
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(100 * 1024 * 1024) });
      res.write(Buffer.alloc(64 * 1024));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    process.env.ELECTRON_MIRROR = `http://127.0.0.1:${port}/`;
    process.env.electron_config_cache = tempDir('studio-electron-cache-');
    const lines: string[] = [];
    const out = { isTTY: false, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
    try {
      const result = await installElectron({ root, out, limits: { connectMs: 5_000, stallMs: 1_000 } });
      expect(result).toEqual({ ok: false, reason: expect.stringContaining('stalled') });
      expect(lines.join('')).toMatch(/Fetching Electron [\d.]+ for the desktop window/);
    } finally {
      delete process.env.ELECTRON_MIRROR;
      delete process.env.electron_config_cache;
    }
  });
});
