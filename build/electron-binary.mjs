// Finds the Electron executable without requiring the `electron` package, whose entry point
// tries to download a missing binary: nothing may download at run time.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The executable's path, or undefined when the binary is not installed. */
export function findElectronBinary() {
  const require = createRequire(import.meta.url);
  let packageDir;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return undefined;
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate = override
    ? join(override, relative || 'electron')
    : relative
      ? join(packageDir, 'dist', relative)
      : undefined;
  return candidate && existsSync(candidate) ? candidate : undefined;
}
