import { watch, type FSWatcher } from 'node:fs';
import { logCaught } from '../log/studio-log';

/** Quiet time after a change in the library folder before the catalog looks. */
const DEBOUNCE_MS = 300;
/** While folders keep changing (a copy in progress), the catalog looks again this often. */
const SETTLE_MS = 1000;

/**
 * Watches the library folder, so a batch folder copied in or deleted in the file manager while
 * the studio runs appears in or leaves the gallery. The watch is on the library folder itself,
 * not recursive (a recursive watch of 250,000 files is costly on Linux): it sees folders arrive
 * and leave, and a copy still filling a folder is followed by looking again each second until a
 * look finds nothing new.
 */
export class LibraryWatch {
  private watcher?: FSWatcher;
  private watched = '';
  private timer?: NodeJS.Timeout;

  constructor(
    private root: () => string,
    private sync: () => Promise<boolean>,
  ) {}

  /** Starts watching, or moves the watch to the library folder Settings now names. */
  start(): void {
    const root = this.root();
    if (this.watcher && root === this.watched) return;
    this.watcher?.close();
    this.watcher = undefined;
    this.watched = root;
    try {
      this.watcher = watch(root, { persistent: false }, () => this.schedule(DEBOUNCE_MS));
      this.watcher.on('error', (err) => {
        logCaught('library folder watch', err);
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch (err) {
      // No watch (the folder is not there yet, or the system refuses more watches): the library
      // is still checked when the Library opens and after every download.
      logCaught('library folder watch', err);
    }
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.sync().then(
        (changed) => changed && this.schedule(SETTLE_MS),
        (err: unknown) => logCaught('library sync after a folder change', err),
      );
    }, ms);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
  }
}
