#!/usr/bin/env node
// `npm start` and `npm run web`: build when the sources are newer than out/, then launch Electron,
// or browser mode when the Electron binary or a display is missing (or with --browser).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from './electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const forceBrowser = args.includes('--browser');
const passThrough = args.filter((a) => a !== '--browser');

const OUTPUTS = ['out/main/index.js', 'out/main/web.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
const SOURCES = [
  'src-main',
  'src-preload',
  'src-renderer',
  'src-shared',
  'sandbox',
  'electron.vite.config.ts',
  'package.json',
];

function newest(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(full).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

function needsBuild() {
  const outputs = OUTPUTS.map((o) => (existsSync(join(root, o)) ? statSync(join(root, o)).mtimeMs : 0));
  return Math.min(...outputs) < Math.max(...SOURCES.map(newest));
}

function run(command, commandArgs) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Why Electron cannot start here, or undefined when it can. */
function electronUnavailable() {
  if (!findElectronBinary()) return 'Electron binary not found (offline install)';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'No display for a desktop window';
  return undefined;
}

if (needsBuild()) {
  console.log('Building the studio…');
  const code = await run(process.execPath, [require.resolve('electron-vite/bin/electron-vite.js'), 'build']);
  if (code !== 0) process.exit(code);
}

const reason = forceBrowser ? undefined : electronUnavailable();
if (!forceBrowser && !reason) {
  process.exit(await run(findElectronBinary(), ['.', ...passThrough]));
}
const web = [join(root, 'out/main/web.js'), ...passThrough];
if (reason) web.push('--reason', `${reason}; starting browser mode instead.`);
process.exit(await run(process.execPath, web));
