import { logCaught } from '../../log/studio-log';
import { makeDir, writeJsonAtomic } from '../../storage/atomic-file';
import {
  CHANGES_FORMAT,
  changesDir,
  journalFile,
  readJournal,
  withChange,
  type Journal,
} from './change-journal';

/** Changes made within this time go into one write of the journal. */
const DEBOUNCE_MS = 200;

/**
 * This studio's change journal, `<library>/.studio/changes/<studioId>.json`: after the studio
 * writes anything in the library (marks, boards, a published folder), it names the folder (or
 * the boards) here. Other studios on the same library look at the few journals every second or
 * so and read exactly the folders named, so their changes show within seconds even where file
 * watches see nothing (SMB, NFS, a sync tool). Only this studio writes its journal, atomically
 * and durably; a burst of changes is one write.
 */
export class LibraryChanges {
  private journal?: { root: string; value: Journal };
  private pending: ({ folder: string } | { boards: true })[] = [];
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private root: () => string,
    /** This studio's own id: its journal's name, and the one journal it never reads as another's. */
    readonly studioId: string,
  ) {}

  /** A batch folder (by its name in the library) was written: published, marked, saved into. */
  noteFolder(name: string): void {
    this.note({ folder: name });
  }

  /** Boards were changed. */
  noteBoards(): void {
    this.note({ boards: true });
  }

  /** Writes what is pending now (the studio is closing, or a test wants it on disk). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.writing.then(() => this.write());
    this.writing = run.catch(() => undefined);
    return run;
  }

  private note(change: { folder: string } | { boards: true }): void {
    this.pending.push(change);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.flush().catch((err: unknown) => logCaught('library change journal write', err));
    }, DEBOUNCE_MS);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    if (!this.pending.length) return;
    const root = this.root();
    const changes = this.pending.splice(0);
    // The journal of this library folder: it goes on from its own last seq (a reader that saw
    // seq 40 before a restart must see 41 next, not 1).
    if (this.journal?.root !== root) {
      const own = await readJournal(journalFile(root, this.studioId));
      const value = own ?? {
        format: CHANGES_FORMAT,
        studio: this.studioId,
        // A journal lost or damaged starts over above any seq its readers saw: a time in ms.
        seq: Date.now(),
        since: Date.now(),
        entries: [],
      };
      this.journal = { root, value };
    }
    const value = changes.reduce(withChange, this.journal.value);
    try {
      await makeDir(changesDir(root));
      await writeJsonAtomic(journalFile(root, this.studioId), value);
      this.journal = { root, value };
    } catch (err) {
      // Not written (a disk full, a share gone): kept for the next write, which names them too.
      this.pending.unshift(...changes);
      throw err;
    }
  }
}
