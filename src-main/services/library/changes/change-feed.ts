import { closeSync, fstatSync, openSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { changesDir, readJournal } from './change-journal';
import { isSyncTemporary, syncConflictOf } from '../folders/sync-conflicts';

/** What other studios' journals named since the last look. */
export interface Named {
  /**
   * Folders changed since the last look: read again now whatever their signature (written after
   * the folder, a journal's name is surer than a folder's times), and looked at for a while after.
   */
  folders: Set<string>;
  /** Folders named in a journal already there at the first look: looked at once, by signature. */
  once: Set<string>;
  boards: boolean;
  /** A journal lost names this studio had not seen (it started over, or kept too few): look at everything. */
  everything: boolean;
}

/**
 * A file's or folder's time, size and inode, or `-` when it is not there. `fresh`: opened, not
 * only looked up, because on NFS an open asks the server (close-to-open consistency) while a
 * stat may answer from the client's attribute cache for up to a minute.
 */
export function stampOf(path: string, fresh: boolean): string {
  let s: Stats | undefined;
  try {
    if (fresh) {
      const fd = openSync(path, 'r');
      try {
        s = fstatSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  } catch {
    // A folder cannot be opened on every system (Windows): looked up instead.
  }
  try {
    s ??= statSync(path, { throwIfNoEntry: false });
  } catch {
    s = undefined;
  }
  return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : '-';
}

/** A journal's file name: `<studioId>.json`, never a sync tool's temporary or conflict copy. */
function isJournalName(name: string): boolean {
  return name.endsWith('.json') && !isSyncTemporary(name) && !syncConflictOf(name);
}

/**
 * Other studios' change journals in `<library>/.studio/changes/`, looked at cheaply: the folder's
 * stamp and each journal's stamp, and a journal is read only when its stamp changed. Answers the
 * folder names (and boards) written since the last look.
 */
export class ChangeFeed {
  private dirStamp = '';
  private files: string[] = [];
  private seen = new Map<string, { stamp: string; seq: number }>();
  /** After the first look, a journal that appears names changes made since: all of it is new. */
  private looked = false;

  constructor(
    private root: string,
    private ownId: string,
    private fresh: boolean,
  ) {}

  async look(): Promise<Named> {
    const named: Named = { folders: new Set(), once: new Set(), boards: false, everything: false };
    const dir = changesDir(this.root);
    const dirStamp = stampOf(dir, this.fresh);
    if (dirStamp !== this.dirStamp) {
      this.dirStamp = dirStamp;
      try {
        this.files = readdirSync(dir).filter((n) => isJournalName(n) && n !== `${this.ownId}.json`);
      } catch {
        this.files = [];
      }
      for (const name of this.seen.keys()) if (!this.files.includes(name)) this.seen.delete(name);
    }
    for (const name of this.files) {
      const stamp = stampOf(join(dir, name), this.fresh);
      const last = this.seen.get(name);
      if (last?.stamp === stamp) continue;
      const journal = await readJournal(join(dir, name));
      // A damaged journal waits for its next write; until then the slow sweep finds its changes.
      this.seen.set(name, { stamp, seq: journal?.seq ?? last?.seq ?? 0 });
      if (!journal) continue;
      const into = last || this.looked ? named.folders : named.once;
      if (last && (journal.seq < last.seq || journal.since > last.seq)) named.everything = true;
      for (const entry of journal.entries) {
        if (last && entry.seq <= last.seq) continue;
        if ('folder' in entry) into.add(entry.folder);
        else named.boards = true;
      }
    }
    this.looked = true;
    return named;
  }
}
