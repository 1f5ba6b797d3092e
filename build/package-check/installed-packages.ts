// The packages in a node_modules tree, and which ones package-lock.json says production needs.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface InstalledPackage {
  name: string;
  version: string;
  dir: string;
}

/** Every package folder in the tree (node_modules/x, node_modules/@s/x, and nested node_modules). */
export async function installedPackages(nodeModules: string): Promise<InstalledPackage[]> {
  const found: InstalledPackage[] = [];
  const dirs = await readdir(nodeModules, { withFileTypes: true }).catch(() => []);
  for (const entry of dirs) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dir = join(nodeModules, entry.name);
    if (entry.name.startsWith('@')) {
      found.push(...(await installedPackages(dir)));
      continue;
    }
    const manifest = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (!manifest) continue;
    const { name, version } = JSON.parse(manifest) as { name: string; version: string };
    found.push({ name, version, dir });
    found.push(...(await installedPackages(join(dir, 'node_modules'))));
  }
  return found;
}

interface LockEntry {
  name?: string;
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  link?: boolean;
}

/**
 * From package-lock.json (v2/v3), as name@version: `production`, every package not marked dev-only;
 * `required`, those of them that are not optional either (optional ones are per platform).
 */
export async function lockedPackages(
  lockFile: string,
): Promise<{ production: Set<string>; required: Set<string> }> {
  const lock = JSON.parse(await readFile(lockFile, 'utf8')) as { packages: Record<string, LockEntry> };
  const production = new Set<string>();
  const required = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path || entry.link || entry.dev || !entry.version) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const id = `${name}@${entry.version}`;
    production.add(id);
    if (!entry.optional && !entry.devOptional) required.add(id);
  }
  return { production, required };
}
