import {
  isBusy,
  updatePreferencesSchema,
  type UpdateAvailability,
  type UpdatePreferences,
  type UpdateStatus,
  type WorkInProgress,
} from '../../../src-shared/updates';
import { logCaught, logInfo } from '../log/studio-log';
import type { KeyValueStore } from '../settings/key-value-store';
import { firstCheckDelay, nextCheckDelay } from './update-schedule';
import type { UpdaterEngine } from './updater-engine';

export const DEFAULT_UPDATE_PREFERENCES: UpdatePreferences = {
  mode: 'automatic',
  channel: 'latest',
  installOnQuit: false,
};

/** While a restart waits for work to end, how often the work is looked at again (events may race). */
export const RESTART_RECHECK_MS = 2_000;

const STORE_KEY = 'updates';

interface Stored {
  preferences: UpdatePreferences;
  skippedVersion?: string;
}

export interface UpdateServiceDeps {
  currentVersion: string;
  availability: UpdateAvailability;
  /** Absent when this copy cannot update itself (`availability` says why). */
  engine?: UpdaterEngine;
  store: KeyValueStore;
  /** The work a restart would interrupt, read from the running services each time. */
  work: () => WorkInProgress;
  publish: (status: UpdateStatus) => void;
  random?: () => number;
  now?: () => number;
}

type Mutable = Omit<UpdateStatus, 'availability' | 'preferences' | 'currentVersion' | 'waitingFor'>;

/**
 * The studio's updates: when to check (update-schedule.ts), what was found and downloaded, and when
 * it may restart onto it. It never restarts by itself: only "Restart now" installs, and only once no
 * batch downloads, no submission is being sent and no KB upload runs. Plain Node, no Electron: the
 * desktop hands it electron-updater through an UpdaterEngine.
 */
export class UpdateService {
  private state: Mutable = { phase: 'idle', dismissed: false, restartPending: false };
  private timer?: ReturnType<typeof setTimeout>;
  private restartTimer?: ReturnType<typeof setTimeout>;
  private failures = 0;
  private lastWork?: string;
  private installing = false;
  /** What was published last: a download's progress republishes it with a new percent. */
  private published?: UpdateStatus;

  constructor(private deps: UpdateServiceDeps) {}

  private get now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private get random(): () => number {
    return this.deps.random ?? Math.random;
  }

  private stored(): Stored {
    const raw = this.deps.store.get(STORE_KEY) as Partial<Stored> | undefined;
    // Field by field, as the settings do: a damaged value falls back to its default.
    const preferences = { ...DEFAULT_UPDATE_PREFERENCES };
    for (const key of Object.keys(preferences) as (keyof UpdatePreferences)[]) {
      const field = updatePreferencesSchema.shape[key].safeParse(raw?.preferences?.[key]);
      if (field.success) Object.assign(preferences, { [key]: field.data });
    }
    const skippedVersion = typeof raw?.skippedVersion === 'string' ? raw.skippedVersion : undefined;
    return { preferences, skippedVersion };
  }

  private save(next: Stored): void {
    this.deps.store.set(STORE_KEY, next);
  }

  /** Can this copy check at all? Browser mode's demo can: it shows the flow with nothing behind it. */
  private get canCheck(): boolean {
    const kind = this.deps.availability.kind;
    return (kind === 'ready' || kind === 'demo') && this.deps.engine !== undefined;
  }

  status(): UpdateStatus {
    const { preferences, skippedVersion } = this.stored();
    return {
      ...this.state,
      skippedVersion,
      availability: this.deps.availability,
      preferences,
      currentVersion: this.deps.currentVersion,
      waitingFor: this.deps.work(),
    };
  }

  private changed(patch: Partial<Mutable> = {}): UpdateStatus {
    this.state = { ...this.state, ...patch };
    const status = this.status();
    this.lastWork = JSON.stringify(status.waitingFor);
    this.published = status;
    this.deps.publish(status);
    return status;
  }

  /**
   * A download's progress, which electron-updater reports about once a second: the banner shows
   * whole percents, so only a new one is published, and as the last status with that percent.
   * Rebuilding it would read the stored preferences and every profile's batches for each tick,
   * though nothing else in it moves by itself meanwhile: preferences, Later and Skip publish
   * through changed(), and the running work matters only to a waiting restart, which needs the
   * download done.
   */
  private progressed(percent: number): void {
    const offer = this.state.offer;
    const whole = Math.round(percent);
    if (!offer || !this.published || offer.percent === whole) return;
    this.state = { ...this.state, offer: { ...offer, percent: whole } };
    this.published = { ...this.published, offer: this.state.offer };
    this.deps.publish(this.published);
  }

  /** Starts the schedule the preferences ask for: a first check about 30 s from now, unless off or manual. */
  start(): void {
    this.reschedule(firstCheckDelay(this.random));
  }

  stop(): void {
    clearTimeout(this.timer);
    clearTimeout(this.restartTimer);
    this.timer = undefined;
    this.restartTimer = undefined;
  }

  private reschedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const { mode } = this.stored().preferences;
    const scheduled = mode === 'automatic' || (mode === 'start' && this.state.lastCheck === undefined);
    // Once an update is ready there is nothing more to look for until the studio restarts on it.
    if (!this.canCheck || !scheduled || this.state.phase === 'ready') {
      if (this.state.nextCheckAt !== undefined) this.changed({ nextCheckAt: undefined });
      return;
    }
    this.timer = setTimeout(() => void this.run(false), delay);
    this.changed({ nextCheckAt: this.now + delay });
  }

  /** "Check for Updates…": now, whatever the schedule; a version skipped before is offered again. */
  check(): Promise<UpdateStatus> {
    return this.run(true);
  }

  private async run(asked: boolean): Promise<UpdateStatus> {
    const engine = this.deps.engine;
    const { preferences, skippedVersion } = this.stored();
    if (!this.canCheck || !engine || preferences.mode === 'off') return this.status();
    // A check or download under way answers for this one too; a ready update is shown again.
    if (this.state.phase === 'checking' || this.state.phase === 'downloading') return this.status();
    if (this.state.phase === 'ready') return asked ? this.changed({ dismissed: false }) : this.status();
    this.changed({ phase: 'checking', error: undefined });
    try {
      engine.configure(preferences);
      const found = await engine.check();
      if (!found) {
        this.failures = 0;
        this.changed({ phase: 'idle', offer: undefined, lastCheck: { at: this.now, outcome: 'upToDate' } });
      } else if (found.version === skippedVersion && !asked) {
        this.failures = 0;
        this.changed({ phase: 'idle', offer: undefined, lastCheck: { at: this.now, outcome: 'skipped' } });
      } else {
        if (found.version === skippedVersion) this.save({ preferences, skippedVersion: undefined });
        logInfo(`Update ${found.version} found; downloading it.`);
        const fresh = this.state.offer?.version !== found.version;
        this.changed({
          phase: 'downloading',
          offer: { version: found.version, notes: found.notes, releaseDate: found.releaseDate, percent: 0 },
          dismissed: fresh ? false : this.state.dismissed,
          lastCheck: { at: this.now, outcome: 'found' },
        });
        await engine.download((percent) => this.progressed(percent));
        this.failures = 0;
        // Skipped while it downloaded: the file stays in the updater's cache, nothing is offered.
        if (this.state.offer?.version === found.version) {
          logInfo(`Update ${found.version} downloaded and verified.`);
          this.changed({ phase: 'ready', offer: { ...this.state.offer, percent: 100 } });
        }
      }
    } catch (err) {
      this.failures += 1;
      logCaught('update check', err);
      this.changed({
        phase: 'error',
        offer: undefined,
        error: err instanceof Error ? err.message : String(err),
        lastCheck: { at: this.now, outcome: 'failed' },
      });
    }
    this.reschedule(nextCheckDelay(this.failures, this.random));
    return this.status();
  }

  setPreferences(patch: Partial<UpdatePreferences>): UpdateStatus {
    const current = this.stored();
    const preferences = updatePreferencesSchema.parse({ ...current.preferences, ...patch });
    this.save({ ...current, preferences });
    this.deps.engine?.configure(preferences);
    // A mode turned to automatic (or back from off) starts the schedule as a new start would.
    if (patch.mode !== undefined && patch.mode !== current.preferences.mode) {
      this.reschedule(firstCheckDelay(this.random));
    }
    return this.changed();
  }

  /**
   * "Restart now": at once when no work runs, else when it has ended. Browser mode's demo answers
   * the status unchanged: there is nothing to install there.
   */
  restart(): UpdateStatus {
    if (this.state.phase !== 'ready' || this.deps.availability.kind !== 'ready') return this.status();
    if (isBusy(this.deps.work())) {
      logInfo('Restart for the update waits for the running work to end.');
      const status = this.changed({ restartPending: true, dismissed: false });
      this.watchWork();
      return status;
    }
    return this.install();
  }

  private install(): UpdateStatus {
    if (this.installing) return this.status();
    this.installing = true;
    this.stop();
    logInfo(`Restarting onto update ${this.state.offer?.version ?? '?'}.`);
    const status = this.changed({ restartPending: false });
    this.deps.engine?.install();
    return status;
  }

  private watchWork(): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.workChanged();
    }, RESTART_RECHECK_MS);
  }

  /**
   * Told when a batch, a submission or an upload moved: a waiting restart happens once all work is
   * done, and the banner's "waiting for" stays current meanwhile.
   */
  workChanged(): void {
    if (!this.state.restartPending) return;
    const work = this.deps.work();
    if (!isBusy(work)) {
      this.install();
      return;
    }
    if (JSON.stringify(work) !== this.lastWork) this.changed();
    this.watchWork();
  }

  /** "Later": the banner goes away, and so does a restart waiting for work. */
  later(): UpdateStatus {
    clearTimeout(this.restartTimer);
    return this.changed({ dismissed: true, restartPending: false });
  }

  /** "Skip this version": it is not offered again (an asked check still finds it). */
  skip(): UpdateStatus {
    const version = this.state.offer?.version;
    if (!version) return this.status();
    const current = this.stored();
    this.save({ ...current, skippedVersion: version });
    clearTimeout(this.restartTimer);
    // A downloaded file stays in the updater's cache; it installs only if the person asks for it.
    this.changed({ phase: 'idle', offer: undefined, dismissed: false, restartPending: false });
    // The schedule stopped while an update was ready; it goes on, to find the version after.
    this.reschedule(nextCheckDelay(0, this.random));
    return this.status();
  }

  /** Quitting while an update downloads is asked about first (the download would start over). */
  downloading(): boolean {
    return this.state.phase === 'downloading';
  }
}
