import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UpdatePreferences, UpdateStatus, WorkInProgress } from '../../src-shared/updates';
import type { KeyValueStore } from '../services/settings/key-value-store';
import { RESTART_RECHECK_MS, UpdateService } from '../services/updates/update-service';
import { CHECK_EVERY_MS, FIRST_CHECK_MS, JITTER, RETRY_FIRST_MS } from '../services/updates/update-schedule';
import type { FoundUpdate, UpdaterEngine } from '../services/updates/updater-engine';

/** An engine whose answers the test sets: what the feed has, and whether the feed is down. */
class ScriptedEngine implements UpdaterEngine {
  found: FoundUpdate | null = null;
  failing = false;
  checks = 0;
  installs = 0;
  configured: UpdatePreferences[] = [];
  /** A download that ends when the test says so. */
  private finishDownload?: () => void;
  holdDownloads = false;
  /** The percents the download reports, in order. */
  progress = [40];

  configure(preferences: UpdatePreferences): void {
    this.configured.push(preferences);
  }

  check(): Promise<FoundUpdate | null> {
    this.checks += 1;
    return this.failing ? Promise.reject(new Error('feed unreachable')) : Promise.resolve(this.found);
  }

  download(onProgress: (percent: number) => void): Promise<void> {
    for (const percent of this.progress) onProgress(percent);
    if (!this.holdDownloads) return Promise.resolve();
    return new Promise((resolve) => (this.finishDownload = resolve));
  }

  endDownload(): void {
    this.finishDownload?.();
  }

  install(): void {
    this.installs += 1;
  }
}

function memoryStore(
  initial: Record<string, unknown> = {},
): KeyValueStore & { data: Record<string, unknown> } {
  const data = { ...initial };
  return { data, get: (k) => data[k], set: (k, v) => void (data[k] = v), delete: (k) => void delete data[k] };
}

const RANDOM = 0.5;
const jittered = (ms: number) => Math.round(ms * (1 + JITTER * RANDOM));
const v2: FoundUpdate = { version: '2.0.0', notes: { en: 'New things', 'zh-CN': '新内容' } };

let engine: ScriptedEngine;
let work: WorkInProgress;
let published: UpdateStatus[];

function service(store = memoryStore(), kind: 'ready' | 'demo' | 'no-feed' = 'ready') {
  return new UpdateService({
    currentVersion: '1.0.0',
    availability: { kind },
    engine: kind === 'no-feed' ? undefined : engine,
    store,
    work: () => ({ ...work }),
    publish: (s) => published.push(s),
    random: () => RANDOM,
  });
}

/** Lets the promises of a check (and its download) settle under fake timers. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  engine = new ScriptedEngine();
  work = { downloads: 0, submissions: 0, kbUploads: 0 };
  published = [];
});
afterEach(() => vi.useRealTimers());

describe('the schedule', () => {
  it('checks about 30 s after start, then every 4 h with its spread', async () => {
    const updates = service();
    updates.start();
    expect(updates.status().nextCheckAt).toBe(1_000_000 + jittered(FIRST_CHECK_MS));
    await vi.advanceTimersByTimeAsync(jittered(FIRST_CHECK_MS) - 1);
    expect(engine.checks).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(engine.checks).toBe(1);
    expect(updates.status().lastCheck?.outcome).toBe('upToDate');
    await vi.advanceTimersByTimeAsync(jittered(CHECK_EVERY_MS) - 1);
    expect(engine.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(engine.checks).toBe(2);
    updates.stop();
  });

  it('backs off after failures, doubling from 5 minutes, and returns to 4 h after a success', async () => {
    engine.failing = true;
    const updates = service();
    updates.start();
    await vi.advanceTimersByTimeAsync(jittered(FIRST_CHECK_MS));
    expect(updates.status()).toMatchObject({ phase: 'error', error: 'feed unreachable' });
    await vi.advanceTimersByTimeAsync(jittered(RETRY_FIRST_MS));
    expect(engine.checks).toBe(2);
    await vi.advanceTimersByTimeAsync(jittered(RETRY_FIRST_MS * 2) - 1);
    expect(engine.checks).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(engine.checks).toBe(3);
    engine.failing = false;
    await vi.advanceTimersByTimeAsync(jittered(RETRY_FIRST_MS * 4));
    expect(engine.checks).toBe(4);
    expect(updates.status().phase).toBe('idle');
    await vi.advanceTimersByTimeAsync(jittered(CHECK_EVERY_MS));
    expect(engine.checks).toBe(5);
    updates.stop();
  });

  it('never checks when off, not even when asked', async () => {
    const updates = service(memoryStore({ updates: { preferences: { mode: 'off' } } }));
    updates.start();
    await updates.check();
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS * 3);
    expect(engine.checks).toBe(0);
    expect(updates.status().nextCheckAt).toBeUndefined();
  });

  it('checks only when asked in manual mode, and once at start in start mode', async () => {
    const manual = service(memoryStore({ updates: { preferences: { mode: 'manual' } } }));
    manual.start();
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS * 2);
    expect(engine.checks).toBe(0);
    await manual.check();
    expect(engine.checks).toBe(1);

    engine.checks = 0;
    const atStart = service(memoryStore({ updates: { preferences: { mode: 'start' } } }));
    atStart.start();
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS * 3);
    expect(engine.checks).toBe(1);
  });

  it('checks nothing in a build without a feed, and says so', async () => {
    const updates = service(memoryStore(), 'no-feed');
    updates.start();
    await updates.check();
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS);
    expect(updates.status()).toMatchObject({ availability: { kind: 'no-feed' }, phase: 'idle' });
  });
});

describe('an update found', () => {
  it('is downloaded, offered with its notes, and not looked for again once ready', async () => {
    engine.found = v2;
    const updates = service();
    updates.start();
    await vi.advanceTimersByTimeAsync(jittered(FIRST_CHECK_MS));
    expect(published.some((s) => s.phase === 'downloading' && s.offer?.percent === 40)).toBe(true);
    expect(updates.status()).toMatchObject({
      phase: 'ready',
      offer: { version: '2.0.0', notes: { en: 'New things', 'zh-CN': '新内容' }, percent: 100 },
      dismissed: false,
      restartPending: false,
    });
    expect(updates.status().nextCheckAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS * 3);
    expect(engine.checks).toBe(1);
    expect(engine.installs).toBe(0);
  });

  it("shows the download's progress in whole percents, each once, read from nothing but the download", async () => {
    /** A check that finds v2 and downloads it with these reports: what it published, and its reads of the work. */
    async function downloadReporting(progress: number[]) {
      engine.found = v2;
      engine.progress = progress;
      published = [];
      let workReads = 0;
      const updates = new UpdateService({
        currentVersion: '1.0.0',
        availability: { kind: 'ready' },
        engine,
        store: memoryStore(),
        work: () => ((workReads += 1), { ...work }),
        publish: (s) => published.push(s),
        random: () => RANDOM,
      });
      await updates.check();
      updates.stop();
      const percents = published.filter((s) => s.phase === 'downloading').map((s) => s.offer?.percent);
      return { percents, last: published.at(-1), workReads };
    }
    const few = await downloadReporting([0.2, 0.4, 1.1, 1.3, 1.6, 2.2, 40]);
    expect(few.percents).toEqual([0, 1, 2, 40]);
    expect(few.last).toMatchObject({ phase: 'ready', offer: { version: '2.0.0', percent: 100 } });
    // A thousand reports read every profile's batches no more often than one did.
    const one = await downloadReporting([40]);
    const many = await downloadReporting(Array.from({ length: 1000 }, (_, i) => i / 10));
    expect(many.percents).toEqual(Array.from({ length: 101 }, (_, i) => i));
    expect(many.workReads).toBe(one.workReads);
  });

  it('makes a quit during its download ask first', async () => {
    engine.found = v2;
    engine.holdDownloads = true;
    const updates = service();
    const checked = updates.check();
    await settle();
    expect(updates.downloading()).toBe(true);
    engine.endDownload();
    await checked;
    expect(updates.downloading()).toBe(false);
  });

  it('installs at once on "Restart now" when nothing runs', async () => {
    engine.found = v2;
    const updates = service();
    await updates.check();
    updates.restart();
    expect(engine.installs).toBe(1);
  });

  it('waits with "Restart now" while work runs, says for what, and restarts when it has ended', async () => {
    engine.found = v2;
    const updates = service();
    await updates.check();
    work = { downloads: 1, submissions: 1, kbUploads: 1 };
    const waiting = updates.restart();
    expect(waiting).toMatchObject({
      restartPending: true,
      waitingFor: { downloads: 1, submissions: 1, kbUploads: 1 },
    });
    expect(engine.installs).toBe(0);
    work = { downloads: 0, submissions: 0, kbUploads: 1 };
    updates.workChanged();
    expect(published.at(-1)?.waitingFor).toEqual(work);
    expect(engine.installs).toBe(0);
    // The upload ends without an event reaching the service: the re-look on a timer catches it.
    work = { downloads: 0, submissions: 0, kbUploads: 0 };
    await vi.advanceTimersByTimeAsync(RESTART_RECHECK_MS);
    expect(engine.installs).toBe(1);
    updates.workChanged();
    expect(engine.installs).toBe(1);
  });

  it('"Later" puts the banner away and the waiting restart off', async () => {
    engine.found = v2;
    const updates = service();
    await updates.check();
    work = { downloads: 1, submissions: 0, kbUploads: 0 };
    updates.restart();
    expect(updates.later()).toMatchObject({ dismissed: true, restartPending: false, phase: 'ready' });
    work = { downloads: 0, submissions: 0, kbUploads: 0 };
    updates.workChanged();
    await vi.advanceTimersByTimeAsync(RESTART_RECHECK_MS * 5);
    expect(engine.installs).toBe(0);
    // Asking again shows it again.
    expect((await updates.check()).dismissed).toBe(false);
  });

  it('"Skip this version" is remembered: scheduled checks pass it over, an asked check offers it', async () => {
    engine.found = v2;
    const store = memoryStore();
    const updates = service(store);
    await updates.check();
    expect(updates.skip()).toMatchObject({ phase: 'idle', skippedVersion: '2.0.0' });
    expect(store.data.updates).toMatchObject({ skippedVersion: '2.0.0' });

    const next = service(store);
    next.start();
    await vi.advanceTimersByTimeAsync(jittered(FIRST_CHECK_MS));
    expect(next.status()).toMatchObject({ phase: 'idle', lastCheck: { outcome: 'skipped' } });
    expect(next.status().offer).toBeUndefined();

    engine.found = { ...v2, version: '2.1.0' };
    await vi.advanceTimersByTimeAsync(jittered(CHECK_EVERY_MS));
    expect(next.status()).toMatchObject({ phase: 'ready', offer: { version: '2.1.0' } });
    next.stop();

    engine.found = v2;
    const asked = service(store);
    expect(await asked.check()).toMatchObject({ phase: 'ready', offer: { version: '2.0.0' } });
    expect(asked.status().skippedVersion).toBeUndefined();
  });

  it("installs nothing in browser mode's demo", async () => {
    engine.found = v2;
    const updates = service(memoryStore(), 'demo');
    await updates.check();
    expect(updates.restart()).toMatchObject({ phase: 'ready', restartPending: false });
    expect(engine.installs).toBe(0);
  });
});

describe('the preferences', () => {
  it('default to automatic, the release channel and no install on quit', () => {
    expect(service().status().preferences).toEqual({
      mode: 'automatic',
      channel: 'latest',
      installOnQuit: false,
    });
  });

  it('are kept, handed to the engine before each check, and a damaged value falls back', async () => {
    const store = memoryStore({ updates: { preferences: { mode: 'sometimes', channel: 'beta' } } });
    const updates = service(store);
    expect(updates.status().preferences).toEqual({
      mode: 'automatic',
      channel: 'beta',
      installOnQuit: false,
    });
    updates.setPreferences({ installOnQuit: true });
    expect(engine.configured.at(-1)).toEqual({ mode: 'automatic', channel: 'beta', installOnQuit: true });
    await updates.check();
    expect(engine.configured.at(-1)?.installOnQuit).toBe(true);
    expect(service(store).status().preferences.installOnQuit).toBe(true);
  });

  it('start the schedule when turned from manual to automatic, and stop it when turned off', async () => {
    const updates = service(memoryStore({ updates: { preferences: { mode: 'manual' } } }));
    updates.start();
    expect(updates.status().nextCheckAt).toBeUndefined();
    updates.setPreferences({ mode: 'automatic' });
    await vi.advanceTimersByTimeAsync(jittered(FIRST_CHECK_MS));
    expect(engine.checks).toBe(1);
    updates.setPreferences({ mode: 'off' });
    expect(updates.status().nextCheckAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(CHECK_EVERY_MS * 2);
    expect(engine.checks).toBe(1);
  });
});
