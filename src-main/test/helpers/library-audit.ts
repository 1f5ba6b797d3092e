import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under a folder, relative to it. */
export function walk(root: string, prefix = ''): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((name) => {
    const path = join(root, name);
    return statSync(path).isDirectory() ? walk(path, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

/** A file of a download in a studio's staging area: between downloads the area holds only its owner record. */
const isStaged = (f: string) =>
  f.startsWith('.studio/staging/') && !/^\.studio\/staging\/[^/]+\/owner\.json$/.test(f);

/** What downloads left in the library's staging areas, every studio's and the legacy one. */
export function stagingLeftovers(libraryDir: string): string[] {
  return walk(libraryDir).filter((f) => f.startsWith('.studio-staging/') || isStaged(f));
}

/** What a person would find in the library: batch folders, and no half-written file anywhere. */
export function auditLibrary(libraryDir: string): {
  folders: Map<string, { images: string[]; record: any }>;
  partial: string[];
} {
  const partial = walk(libraryDir).filter(
    (f) => /\.(part|tmp)$/.test(f) || f.startsWith('.studio-staging/') || isStaged(f),
  );
  const folders = new Map<string, { images: string[]; record: any }>();
  for (const name of existsSync(libraryDir) ? readdirSync(libraryDir) : []) {
    if (name.startsWith('.')) continue;
    const record = JSON.parse(readFileSync(join(libraryDir, name, 'batch.json'), 'utf8'));
    folders.set(record.batch.id, { images: readdirSync(join(libraryDir, name, 'images')).sort(), record });
  }
  return { folders, partial };
}
