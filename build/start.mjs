#!/usr/bin/env node
// `npm start` and `npm run web`: build when the sources are newer than out/, then launch Electron.
// Where Electron's binary is missing (Electron 45 fetches it on first use, not at install), fetch it
// with a progress line and time limits; where that fails, or there is no display, or with
// --browser, start browser mode and say why in one line. Never hang.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary } from './electron-binary.mjs';
import { FETCH_ELECTRON_LATER, installElectron } from './electron-install.mjs';

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

/** The floor `engines` states: vite 8 and electron-vite need 20.19, Electron's installer require(esm). */
function nodeTooOld() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major < 20 || (major === 20 && minor < 19) || (major === 22 && minor < 12) || major === 21;
}

/** electron-vite's command-line entry, found through its package.json `bin` (its exports hide the path). */
function electronViteBin() {
  const manifest = require.resolve('electron-vite/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  return join(dirname(manifest), typeof bin === 'string' ? bin : bin['electron-vite']);
}

/** Why Electron cannot start here, or undefined when it can; fetches a missing binary first. */
async function electronUnavailable() {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'No display for a desktop window; starting browser mode instead.';
  if (findElectronBinary()) return undefined;
  const installed = await installElectron({ root });
  const later = `To get the desktop window later, run: ${FETCH_ELECTRON_LATER}`;
  if (!installed.ok) return `${installed.reason}; starting browser mode instead. ${later}`;
  return findElectronBinary()
    ? undefined
    : `Electron's installer left no binary; starting browser mode instead. ${later}`;
}

if (nodeTooOld()) {
  console.error(
    `Batch Image Studio needs Node.js 20.19 or later (22.12 or later on 22); this is ${process.version}.`,
  );
  process.exit(1);
}

if (needsBuild()) {
  console.log('Building the studio…');
  const code = await run(process.execPath, [electronViteBin(), 'build']);
  if (code !== 0) process.exit(code);
}

let reason = forceBrowser ? undefined : await electronUnavailable();
if (!forceBrowser && !reason) {
  const launched = Date.now();
  const code = await run(findElectronBinary(), ['.', ...passThrough]);
  // A binary that cannot start at all (missing system libraries, a broken download) fails within
  // moments; the user still gets a studio. A window that ran and closed is a normal exit.
  if (code === 0 || Date.now() - launched > 5_000) process.exit(code);
  reason = `The desktop window could not start (Electron exited with code ${code}); starting browser mode instead.`;
}
const web = [join(root, 'out/main/web.js'), ...passThrough];
if (reason) web.push('--reason', reason);
process.exit(await run(process.execPath, web));
