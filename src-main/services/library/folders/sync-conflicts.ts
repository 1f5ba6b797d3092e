/**
 * The copies sync tools leave beside a file that changed on two machines at once, and the files
 * they write while one is still arriving. The studio never shows them as images or as damage: a
 * conflict copy of one of its own files is read and its contents merged into the original's
 * (review-files.ts), and a folder with temporaries in it is still arriving.
 *
 * The names, per tool (the original is `name.ext`):
 * - Syncthing: `name.sync-conflict-20261127-101112-ABCDEFG.ext`; temporaries `.syncthing.name.ext.tmp`
 *   (`~syncthing~name.ext.tmp` on Windows).
 * - Dropbox: `name (Jane's conflicted copy 2026-11-27).ext`, also `(… conflicted copy 2026-11-27 (1))`.
 * - Nextcloud and ownCloud: `name (conflicted copy 2026-11-27 101112).ext`, older clients
 *   `name_conflict-20261127-101112.ext`, and `name (conflicted copy Jane 2026-11-27 101112).ext`.
 * - OneDrive: `name-MACHINE.ext` (the machine's name, upper case), `name-MACHINE-2.ext`. A plain name
 *   with a dash is far more common than a OneDrive copy, so it counts only where the caller knows the
 *   original exists (`knownOriginals`).
 */
export type SyncTool = 'syncthing' | 'dropbox' | 'nextcloud' | 'onedrive';

export interface SyncConflict {
  /** The file the copy is of, in the same folder. */
  original: string;
  tool: SyncTool;
}

const SYNCTHING = /^(.*)\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]{7})?(\.[^.]*)?$/;
const DROPBOX = /^(.*?) \([^()]*conflicted copy[^()]*?\d{4}-\d{2}-\d{2}(?: \(\d+\))?\)(\.[^.]*)?$/i;
const NEXTCLOUD = /^(.*?) \(conflicted copy(?: [^()]*)? \d{4}-\d{2}-\d{2} \d{6}\)(\.[^.]*)?$/i;
const NEXTCLOUD_OLD = /^(.*)_conflict-\d{8}-\d{6}(\.[^.]*)?$/;
// A machine name has a letter in it: `row-12.png` is not a copy of `row.png`.
const ONEDRIVE = /^(.*)-(?=[A-Z0-9_-]*[A-Z])[A-Z0-9][A-Z0-9_-]{0,14}?(?:-\d+)?(\.[^.]*)?$/;

/**
 * What `name` is a conflict copy of, or undefined for an ordinary name. `knownOriginals`: the names
 * in the same folder, which OneDrive's plain `-MACHINE` form needs to be told from a real name.
 */
export function syncConflictOf(name: string, knownOriginals?: ReadonlySet<string>): SyncConflict | undefined {
  // Nextcloud's dated form is checked before Dropbox's: Dropbox's pattern would take it too.
  for (const [pattern, tool] of [
    [SYNCTHING, 'syncthing'],
    [NEXTCLOUD, 'nextcloud'],
    [DROPBOX, 'dropbox'],
    [NEXTCLOUD_OLD, 'nextcloud'],
  ] as const) {
    const m = pattern.exec(name);
    if (m && m[1]) return { original: `${m[1]}${m[2] ?? ''}`, tool };
  }
  if (knownOriginals) {
    const m = ONEDRIVE.exec(name);
    const original = m && m[1] ? `${m[1]}${m[2] ?? ''}` : undefined;
    if (original && original !== name && knownOriginals.has(original)) return { original, tool: 'onedrive' };
  }
  return undefined;
}

/** A file a sync tool is still writing: its folder is arriving, not damaged. */
export function isSyncTemporary(name: string): boolean {
  return (
    /^\.syncthing\..+\.tmp$/.test(name) ||
    /^~syncthing~.+\.tmp$/.test(name) ||
    // Dropbox's and Nextcloud's partial downloads, and OneDrive's.
    /\.(dropbox|part|partial|~tmp|tmp-[0-9a-f]+)$/i.test(name) ||
    /^~\$/.test(name) ||
    /^\.~lock\./.test(name) ||
    /\.owncloud-?part$/i.test(name) ||
    /^\.[^.]+\.[0-9a-f]{6,}\.partial$/i.test(name)
  );
}

/**
 * The person a file named `<person id>.json` in a shared folder belongs to (marks in `review/`,
 * boards in `.studio/boards/`), or undefined for any other name: one rule for both formats.
 */
export function personIdOfFile(name: string): string | undefined {
  const m = /^([A-Za-z0-9_-]{1,64})\.json$/.exec(name);
  return m?.[1];
}

/** Where a person's own file that cannot be parsed is kept aside before being written again. */
export function damagedName(name: string): string {
  return `${name}.damaged-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
