import { watch, type FSWatcher } from 'node:fs';
import { logCaught, logInfo } from '../../log/studio-log';
import type { SyncScope } from '../catalog/catalog-indexing';
import { ChangeFeed, stampOf } from './change-feed';
import { changesDir } from './change-journal';
import { watchModeOf } from './watch-mode';

/** Quiet time after a change in the library folder before the catalog looks. */
const DEBOUNCE_MS = 300;
/** While folders keep changing (a copy in progress), the catalog looks again this often. */
const SETTLE_MS = 1000;
/**
 * How often the few files that say another studio wrote something are looked at: the change
 * journals' folder and files, and the library folder's own time (folders came or went). A few
 * stats each time, so another studio's change shows within about a second, even on a share.
 */
const POLL_MS = 1000;
/**
 * How long a folder another studio named is looked at again (its signature, a few stats) at every
 * poll: a sync tool may bring the journal before the folder's own files.
 */
const LINGER_MS = 60_000;
/**
 * Every folder's signature is checked from time to time, as a safety net for writers that keep no
 * journal (a folder changed by hand, an older studio); journal writers and new folders are seen
 * within a poll. At least a minute apart: such changes are rare, and a minute is as long as a
 * person waits for a hand-made change before wondering. And at most 1/300 of the time: at 5,000
 * folders a sweep is 25,000 stats, 70 ms on a quiet local disk (once a minute) but 300 ms on a
 * busy two-core machine and seconds on a share, where it is then made every few minutes instead,
 * so the safety net never costs more than about 0.3 % of a core. Never more than ten minutes apart.
 */
const SWEEP_MIN_MS = 60_000;
const SWEEP_MAX_MS = 10 * 60_000;
const SWEEP_SHARE = 300;
/** The lingering key of the boards (a folder name never starts with a dot). */
const BOARDS = '.boards';

/** What the watch asks of the catalog. */
export interface WatchedLibrary {
  sync(): Promise<boolean>;
  recheck(scope: SyncScope): Promise<boolean>;
  arriving(): string[];
}

/**
 * Keeps the catalog in step with what others write in the library folder while the studio runs:
 * another studio's marks, boards and folders (on this machine, on a share, or through a sync
 * tool), and folders copied in or deleted in the file manager.
 *
 * - The change journals of other studios (`.studio/changes/`) are polled every second, and
 *   watched where watches work: exactly the folders they name are read again, and looked at for
 *   a minute after.
 * - The library folder's own time is polled too (folders came or went), and watched where
 *   watches work. The watch is not recursive (a recursive watch of 250,000 files is costly on
 *   Linux); a copy still filling a folder is followed by looking again each second until a look
 *   finds nothing new, and folders still arriving are looked at until whole.
 * - Every folder is checked every minute or few (SWEEP_MIN_MS), for writers that keep no journal.
 *
 * On a network file system (or with STUDIO_LIBRARY_WATCH=poll) nothing is watched: watches there
 * see only this machine's writes, and polling alone shows the rest.
 */
export class LibraryWatch {
  private watchers: FSWatcher[] = [];
  private watched = '';
  private timer?: NodeJS.Timeout;
  private poll?: NodeJS.Timeout;
  private sweep?: NodeJS.Timeout;
  private lastSweepMs = 0;
  private soon?: NodeJS.Timeout;
  private feed?: ChangeFeed;
  /** Watches on (not a share, not turned off); `journalsWatched` once the journals' folder is. */
  private watching = false;
  private journalsWatched = false;
  private fresh = false;
  private rootStamp = '';
  private lingering = new Map<string, number>();
  private looking = false;

  constructor(
    private root: () => string,
    private library: WatchedLibrary,
    private studioId: string,
    private env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** Starts watching, or moves the watch to the library folder Settings now names. */
  start(): void {
    const root = this.root();
    if (this.poll && root === this.watched) return;
    this.stop();
    this.watched = root;
    const mode = watchModeOf(root, this.env);
    logInfo(`library folder ${mode.watch ? 'watched and polled' : 'polled, not watched'} (${mode.why})`);
    this.watching = mode.watch;
    this.journalsWatched = false;
    this.fresh = !mode.watch;
    this.feed = new ChangeFeed(root, this.studioId, this.fresh);
    this.rootStamp = stampOf(root, this.fresh);
    if (mode.watch) this.watchFolder(root, () => this.schedule(DEBOUNCE_MS));
    this.poll = setInterval(() => void this.look(), POLL_MS);
    this.poll.unref();
    this.nextSweep(SWEEP_MIN_MS);
    void this.look();
  }

  stop(): void {
    clearTimeout(this.timer);
    clearTimeout(this.soon);
    clearInterval(this.poll);
    clearTimeout(this.sweep);
    this.poll = undefined;
    for (const w of this.watchers) w.close();
    this.watchers = [];
    this.lingering.clear();
  }

  private watchFolder(dir: string, changed: () => void): boolean {
    try {
      const watcher = watch(dir, { persistent: false }, changed);
      watcher.on('error', (err) => {
        logCaught('library folder watch', err);
        watcher.close();
        this.watchers = this.watchers.filter((w) => w !== watcher);
      });
      this.watchers.push(watcher);
      return true;
    } catch (err) {
      // No watch (the folder is not there yet, or the system refuses more watches): polling
      // still sees every change, a second later.
      logCaught('library folder watch', err);
      return false;
    }
  }

  /**
   * One poll: the library folder's time, the journals, and the folders named lately or still
   * arriving. Polls never overlap: a slow share delays the next, it does not pile them up.
   */
  private async look(): Promise<void> {
    if (this.looking || !this.feed) return;
    this.looking = true;
    try {
      const root = this.watched;
      const stamp = stampOf(root, this.fresh);
      if (stamp !== this.rootStamp) {
        this.rootStamp = stamp;
        this.schedule(DEBOUNCE_MS);
      }
      if (this.watching && !this.journalsWatched) {
        // The journals' folder is made by the first journal written: watched once it is there.
        const dir = changesDir(root);
        if (stampOf(dir, false) !== '-') this.journalsWatched = this.watchFolder(dir, () => this.lookSoon());
      }
      const named = await this.feed.look();
      if (named.everything) this.schedule(0);
      const until = Date.now() + LINGER_MS;
      for (const folder of named.folders) this.lingering.set(folder, until);
      if (named.boards) this.lingering.set(BOARDS, until);
      const now = Date.now();
      for (const [key, end] of this.lingering) if (end < now) this.lingering.delete(key);
      const folders = new Set([...named.once, ...this.lingering.keys(), ...this.library.arriving()]);
      const boards = folders.delete(BOARDS) || named.boards;
      if (folders.size || boards)
        await this.library.recheck({
          folders: [...folders],
          boards,
          named: [...named.folders],
          boardsNamed: named.boards,
        });
    } catch (err) {
      logCaught('library change poll', err);
    } finally {
      this.looking = false;
    }
  }

  /** The next sweep of every folder, spaced by what the last one took (SWEEP_SHARE). */
  private nextSweep(ms: number): void {
    clearTimeout(this.sweep);
    this.sweep = setTimeout(() => {
      const started = performance.now();
      const root = this.watched;
      this.library.sync().then(
        (changed) => {
          if (root !== this.watched || !this.poll) return;
          // A sweep that read folders took longer than looking: the next is spaced by the last look only.
          const took = changed ? this.lastSweepMs : performance.now() - started;
          this.lastSweepMs = took;
          this.nextSweep(Math.min(SWEEP_MAX_MS, Math.max(SWEEP_MIN_MS, took * SWEEP_SHARE)));
          if (changed) this.schedule(SETTLE_MS);
        },
        (err: unknown) => {
          logCaught('library sweep', err);
          if (root === this.watched && this.poll) this.nextSweep(SWEEP_MAX_MS);
        },
      );
    }, ms);
    this.sweep.unref();
  }

  /** A journal changed (seen by a watch): looked at in a moment, when its write is surely whole. */
  private lookSoon(): void {
    clearTimeout(this.soon);
    this.soon = setTimeout(() => void this.look(), 50);
    this.soon.unref();
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.library.sync().then(
        (changed) => changed && this.schedule(SETTLE_MS),
        (err: unknown) => logCaught('library sync after a folder change', err),
      );
    }, ms);
    this.timer.unref();
  }
}
