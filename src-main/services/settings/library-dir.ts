import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { StudioError } from '../../../src-shared/studio-error';

/** Kernel and device file systems: a library there would write into the system, not onto a disk. */
const SPECIAL_ROOTS = ['/proc', '/sys', '/dev'];

const refuse = (message: string) => new StudioError({ code: 'STUDIO_LIBRARY_DIR_INVALID', message });

/**
 * Where a library folder setting points. A relative one is taken from the data folder, never from
 * the working folder of whatever process started the studio (which differs between the desktop
 * app, `npm run web` and a script); `~` is the home folder.
 */
export function resolveLibraryDir(value: string, dataDir: string): string {
  const trimmed = value.trim();
  if (trimmed === '~' || trimmed.startsWith('~/')) return join(homedir(), trimmed.slice(1));
  return isAbsolute(trimmed) ? resolve(trimmed) : resolve(dataDir, trimmed);
}

function isSpecial(path: string): boolean {
  return SPECIAL_ROOTS.some((root) => path === root || path.startsWith(root + sep));
}

/** An absolute path in a kernel or device file system, or leading there by a link. */
export function isSystemLocation(path: string): boolean {
  return isSpecial(path) || isSpecial(realOf(path));
}

/** The path with links resolved as far as it exists, so a link into /proc is seen for what it is. */
function realOf(path: string): string {
  let existing = path;
  for (;;) {
    try {
      return join(realpathSync(existing), path.slice(existing.length));
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      existing = parent;
    }
  }
}

/** Whether a stored value can be used without touching the disk: absolute and not a system path. */
export function plausibleLibraryDir(value: string, dataDir: string): boolean {
  return !isSpecial(resolveLibraryDir(value, dataDir));
}

/**
 * Checks a library folder chosen in Settings and answers its absolute path: refused when it is a
 * system location, a file, or a folder the studio cannot write. A folder that does not exist yet
 * is fine; the first download makes it.
 */
export function checkLibraryDir(value: string, dataDir: string): string {
  const path = resolveLibraryDir(value, dataDir);
  if (isSystemLocation(path)) {
    throw refuse(`${path} is a system location (${SPECIAL_ROOTS.join(', ')}); choose a folder on a disk.`);
  }
  let stat;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch {
    // ENAMETOOLONG, ELOOP, ENOTDIR: Node's words and codes are for no one; no such folder can be used.
    throw refuse(
      `${path.slice(0, 300)} cannot be a folder here: a name in it is too long, or a file is in its way.`,
    );
  }
  if (stat && !stat.isDirectory()) throw refuse(`${path} is a file, not a folder.`);
  if (stat) {
    try {
      accessSync(path, constants.W_OK);
    } catch {
      throw refuse(`The studio may not write into ${path}.`);
    }
  }
  return path;
}
