// What the app's own files weigh in a packaged copy, by package, for the packaging check's output.
import asar from '@electron/asar';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { MB } from '../size-limits.mjs';

async function filesUnder(dir: string): Promise<{ path: string; size: number }[]> {
  const found: { path: string; size: number }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else if (entry.isFile()) found.push({ path, size: (await stat(path)).size });
  }
  return found;
}

/** `node_modules/@img/sharp-linux-x64/lib/x.node` → `@img/sharp-linux-x64`; `out/main/index.js` → `out`. */
function ownerOf(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return parts[0] ?? path;
  const name = parts[at + 1] ?? '';
  return name.startsWith('@') ? `${name}/${parts[at + 2] ?? ''}` : name;
}

const mb = (bytes: number) => (bytes / MB).toFixed(1).padStart(6);

/**
 * resources/ of a packaged app (app.asar, app.asar.unpacked, app-update.yml): the total, and the
 * largest owners (a package, or out/ for the bundles), counting the asar's entries and the
 * unpacked files each under their package.
 */
export async function sizeReport(
  resources: string,
  asarFile: string,
): Promise<{ totalMB: number; text: string }> {
  const files = await filesUnder(resources);
  const total = files.reduce((n, f) => n + f.size, 0);
  const byOwner = new Map<string, number>();
  const add = (owner: string, size: number) => byOwner.set(owner, (byOwner.get(owner) ?? 0) + size);
  for (const file of files) {
    const rel = relative(resources, file.path);
    if (rel === 'app.asar') continue;
    add(rel.startsWith(`app.asar.unpacked${sep}`) ? ownerOf(rel) : rel, file.size);
  }
  for (const entry of asar.listPackage(asarFile, { isPack: false })) {
    const node = asar.statFile(asarFile, entry.replace(/^[\\/]/, ''), false) as {
      size?: number;
      unpacked?: boolean;
    };
    if (typeof node.size === 'number' && !node.unpacked) add(ownerOf(entry), node.size);
  }
  const top = [...byOwner.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15);
  const text = [
    `The app's own files: ${mb(total).trim()} MB (resources/ of the unpacked Linux app)`,
    ...top.map(([owner, size]) => `  ${mb(size)} MB  ${owner}`),
  ].join('\n');
  return { totalMB: total / MB, text };
}
