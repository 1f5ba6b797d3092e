// Stand-in for the lead's module of the same name (same exports): replaced by main's at merge.

const CONFLICTS: { tool: string; pattern: RegExp }[] = [
  // Syncthing: `name.sync-conflict-20261127-051530-ABCDEF7.ext`
  { tool: 'Syncthing', pattern: /^(.*)\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}(\.[^.]*)?$/ },
  // Dropbox: `name (Ana's conflicted copy 2026-11-27).ext`
  { tool: 'Dropbox', pattern: /^(.*) \([^()]*conflicted copy[^()]*\)(\.[^.]*)?$/i },
  // Nextcloud: `name (conflicted copy 2026-11-27 051530).ext`
  { tool: 'Nextcloud', pattern: /^(.*) \(conflicted copy \d{4}-\d{2}-\d{2} \d{6}\)(\.[^.]*)?$/i },
  // OneDrive: `name-DESKTOP-AB12CD.ext`
  { tool: 'OneDrive', pattern: /^(.*)-(?:DESKTOP|LAPTOP)-[A-Z0-9]{5,}(\.[^.]*)?$/ },
];

/** A sync tool's conflict copy of a file: the file it copies, and the tool. */
export function syncConflictOf(name: string): { original: string; tool: string } | undefined {
  for (const { tool, pattern } of CONFLICTS) {
    const m = pattern.exec(name);
    if (m) return { original: `${m[1]}${m[2] ?? ''}`, tool };
  }
  return undefined;
}

/** A sync tool's file still being written (renamed into place when whole). */
export function isSyncTemporary(name: string): boolean {
  return (
    /^\.syncthing\..*\.tmp$/.test(name) ||
    /^~syncthing~.*\.tmp$/.test(name) ||
    /^\.~.*\.tmp$/.test(name) ||
    /\.dropbox\.tmp$|^\.dropbox\.cache$/i.test(name) ||
    /^~\$/.test(name)
  );
}
