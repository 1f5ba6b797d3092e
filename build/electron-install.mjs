// Fetches Electron's binary the first time `npm start` needs it. Electron 45 no longer downloads at
// `npm install`; its own installer (`install-electron`, the package's install.js) does it on first
// use. We run that installer, but first fill its download cache ourselves with @electron/get, the
// same library and the same checksums it uses, so that the user sees a progress line and the wait
// has limits: a connection that never answers, or a transfer that stalls, gives up instead of hanging.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The command that fetches the binary later, by hand. */
export const FETCH_ELECTRON_LATER = 'npx install-electron';

const DEFAULT_LIMITS = { connectMs: 20_000, stallMs: 30_000, totalMs: 10 * 60_000, extractMs: 120_000 };

/** Why a download failed, in one short clause: no stack, no URL query, no parser text. */
function shortReason(err) {
  const cause = err?.cause;
  const code = cause?.code ?? err?.code;
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return String(err.message || 'timed out');
  if (err?.response?.status) return `the server answered HTTP ${err.response.status}`;
  if (code) return `network error ${code}`;
  if (cause?.message) return String(cause.message).split('\n')[0].slice(0, 160);
  return String(err?.message ?? err)
    .split('\n')[0]
    .slice(0, 160);
}

/**
 * @electron/get goes through a proxy only when ELECTRON_GET_USE_PROXY is set: where a proxy is
 * configured and that is not, a failed download is most likely why, and the reason says so.
 */
function proxyHint(env = process.env) {
  const proxy = env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy;
  return proxy && !env.ELECTRON_GET_USE_PROXY ? '; behind a proxy, set ELECTRON_GET_USE_PROXY=1' : '';
}

function megabytes(bytes) {
  return (bytes / 1024 / 1024).toFixed(0);
}

/** One line that redraws itself on a terminal, and prints every 10 % elsewhere (CI logs). */
function progressLine(out, label) {
  let lastTenth = -1;
  return {
    update(transferred, total) {
      const text = total
        ? `${label}: ${Math.floor((transferred / total) * 100)} % (${megabytes(transferred)} / ${megabytes(total)} MB)`
        : `${label}: ${megabytes(transferred)} MB`;
      if (out.isTTY) {
        out.write(`\r${text}\u001b[K`);
        return;
      }
      const tenth = total ? Math.floor((transferred / total) * 10) : Math.floor(transferred / 10_485_760);
      if (tenth !== lastTenth) {
        lastTenth = tenth;
        out.write(`${text}\n`);
      }
    },
    end() {
      if (out.isTTY) out.write('\n');
    },
  };
}

/**
 * Downloads and installs the Electron binary. Resolves `{ ok: true }`, or `{ ok: false, reason }`
 * with a one-clause reason; never throws and never waits past its limits.
 */
export async function installElectron({ root, out = process.stdout, limits = {} } = {}) {
  const { connectMs, stallMs, totalMs, extractMs } = { ...DEFAULT_LIMITS, ...limits };
  const require = createRequire(join(root, 'package.json'));
  let electronDir;
  try {
    electronDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { ok: false, reason: 'the electron package is not installed (run npm install)' };
  }
  const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'));
  const checksums = JSON.parse(readFileSync(join(electronDir, 'checksums.json'), 'utf8'));
  const electronRequire = createRequire(join(electronDir, 'package.json'));

  const progress = progressLine(out, `Fetching Electron ${version} for the desktop window`);
  const controller = new AbortController();
  let timer;
  const abortAfter = (ms, why) => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(Object.assign(new Error(why), { name: 'TimeoutError' })), ms);
  };
  abortAfter(connectMs, `no answer in ${connectMs / 1000} s`);
  const overall = setTimeout(
    () =>
      controller.abort(
        Object.assign(new Error(`not done in ${totalMs / 60_000} min`), { name: 'TimeoutError' }),
      ),
    totalMs,
  );
  progress.update(0, 0);
  try {
    const { downloadArtifact } = await import(pathToFileURL(electronRequire.resolve('@electron/get')).href);
    await downloadArtifact({
      version,
      artifactName: 'electron',
      platform: process.env.ELECTRON_INSTALL_PLATFORM ?? process.platform,
      arch: process.env.ELECTRON_INSTALL_ARCH ?? process.arch,
      checksums,
      cacheRoot: process.env.electron_config_cache,
      downloadOptions: {
        quiet: true,
        signal: controller.signal,
        getProgressCallback: ({ transferred, total }) => {
          abortAfter(stallMs, `the download stalled for ${stallMs / 1000} s`);
          progress.update(transferred, total ?? 0);
        },
      },
    });
  } catch (err) {
    progress.end();
    const reason = controller.signal.aborted ? shortReason(controller.signal.reason) : shortReason(err);
    return { ok: false, reason: `Electron could not be downloaded (${reason}${proxyHint()})` };
  } finally {
    clearTimeout(timer);
    clearTimeout(overall);
  }
  progress.end();

  // The archive is in @electron/get's cache now: Electron's own installer unpacks it without a
  // second download, and writes path.txt as it always does.
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [join(electronDir, 'install.js')], {
      cwd: electronDir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const limit = setTimeout(() => child.kill('SIGKILL'), extractMs);
    child.on('exit', (exitCode) => {
      clearTimeout(limit);
      resolve(exitCode === 0 ? 0 : stderr.split('\n')[0] || `exit ${exitCode}`);
    });
    child.on('error', (err) => resolve(err.message));
  });
  if (code !== 0) return { ok: false, reason: `Electron's installer failed (${String(code).slice(0, 160)})` };
  return { ok: true };
}
