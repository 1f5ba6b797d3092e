// Runs the packaged app's browser-mode entry with plain Node from an extracted app.asar: whatever
// the bundles import must then come from the packaged node_modules, not the repository's.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface PackagedBrowserMode {
  origin: string;
  token: string;
  stop(): Promise<void>;
}

const URL_LINE = /Batch Image Studio \(browser mode\): (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/;

/** Starts `node out/main/web.js --port 0 --data <dataDir>` in `appDir` and waits for its address. */
export async function startPackagedBrowserMode(
  appDir: string,
  dataDir: string,
): Promise<PackagedBrowserMode> {
  const child = spawn(process.execPath, ['out/main/web.js', '--port', '0', '--data', dataDir], {
    cwd: appDir,
    // No NODE_PATH or NODE_OPTIONS from the test runner may lend it modules.
    env: { PATH: process.env.PATH ?? '', HOME: dataDir, STUDIO_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const address = await new Promise<{ origin: string; token: string }>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = URL_LINE.exec(output);
      if (match) resolve({ origin: match[1]!, token: match[2]! });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`web.js exited with ${code} before listening:\n${output}`)));
  });
  return { ...address, stop: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
