import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

/** What takes 40-230 ms each to load, and is needed by no first screen. */
const HEAVY = ['sharp', 'pdfkit', '@napi-rs/canvas', 'gpt-tokenizer', 'read-excel-file'];

/**
 * Module loading hooks for the child: every package an `import` resolves is written to stdout.
 * (A `require` goes to require.cache instead, read at the end.)
 */
const HOOKS = `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(resolved.url);
  if (m) console.log('package ' + m[1]);
  return resolved;
}`)}`;

/**
 * Browser mode from its sources, as `npm run web` starts it: the address, then the calls a first
 * screen makes; then every package loaded, by import or by require.
 */
function startAndList(dataDir: string): Promise<{ address: boolean; packages: Set<string> }> {
  const script = `
    import { register, createRequire } from 'node:module';
    register(${JSON.stringify(HOOKS)});
    const { startBrowserMode } = await import(${JSON.stringify(join(__dirname, '..', 'web', 'browser-mode.ts'))});
    let address = false;
    const { host, services } = await startBrowserMode({ port: 0, dataDir: ${JSON.stringify(dataDir)} }, () => {
      address = true;
      console.log('address');
    });
    for (const method of ['app.info', 'settings.get', 'batches.list', 'library.overview', 'library.query'])
      await services.dispatch(method, {});
    const cache = Object.keys(createRequire(import.meta.url).cache);
    for (const file of cache) {
      const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
      if (m) console.log('package ' + m[1]);
    }
    console.log('done');
    await host.close();
    await services.close();
    process.exit(0);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, STUDIO_SANDBOX_TIME_SCALE: '300' },
  });
  const packages = new Set<string>();
  let address = false;
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'address') address = true;
      if (line.startsWith('package ')) packages.add(line.slice('package '.length));
      if (line === 'done') resolve({ address, packages });
    });
    child.once('exit', (code) => code && reject(new Error(`the studio exited with ${code}`)));
  });
}

describe('the start path', () => {
  it('prints the address first, and loads none of the heavy libraries for a first screen', async () => {
    const { address, packages } = await startAndList(mkdtempSync(join(tmpdir(), 'studio-start-')));
    expect(address).toBe(true);
    // The services did start: what they do load at once is there.
    expect(packages).toContain('libsql');
    expect(packages).toContain('zod');
    for (const heavy of HEAVY) expect(packages).not.toContain(heavy);
  });
});
