import { AppImageUpdater, DebUpdater } from 'electron-updater';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UpdatePreferences } from '../../src-shared/updates';
import { AppUpdaterEngine } from '../services/updates/app-updater-engine';
import { startFeedServer, type FeedServer } from './helpers/updater/feed-server';
import { fakeApp, onNode, writeUpdaterId, type FakeApp } from './helpers/updater/real-updaters';
import { linuxChannelFile, nextVersionOf, payload, writeRelease } from './helpers/updater/release-files';

// electron-updater's own AppImage and deb updaters, in plain Node, against a feed on 127.0.0.1. The
// app's engine (AppUpdaterEngine) drives them as the desktop does; no Electron anywhere.

const APPIMAGE = 'batch-image-studio-x86_64.AppImage';
const DEB = 'batch-image-studio_amd64.deb';
const SIZE = 512 * 1024;
const PREFS: UpdatePreferences = { mode: 'automatic', channel: 'latest', installOnQuit: false };

const oldBytes = payload(1, SIZE);
const newBytes = nextVersionOf(oldBytes, [3, 17], 99);
const sha512 = (data: Buffer) => createHash('sha512').update(data).digest('base64');

let feedDir: string;
let feed: FeedServer;
let dir: string;
let app: FakeApp;
const savedAppImage = process.env.APPIMAGE;

beforeAll(async () => {
  feedDir = mkdtempSync(join(tmpdir(), 'studio-feed-'));
  feed = await startFeedServer(feedDir);
});
afterAll(async () => {
  await feed.close();
  if (savedAppImage === undefined) delete process.env.APPIMAGE;
  else process.env.APPIMAGE = savedAppImage;
});

/** The running AppImage, 1.0.0 with its embedded blockmap, as the old file of a differential download. */
function installAppImage(version = '1.0.0'): string {
  dir = mkdtempSync(join(tmpdir(), 'studio-installed-'));
  app = fakeApp(dir, version, feed.url);
  const installed = join(dir, APPIMAGE);
  const oldFeed = mkdtempSync(join(tmpdir(), 'studio-old-feed-'));
  writeFileSync(
    installed,
    writeRelease(oldFeed, {
      version,
      channelFile: 'old.yml',
      artifact: { name: APPIMAGE, bytes: oldBytes, blockMap: 'embedded' },
    }),
  );
  process.env.APPIMAGE = installed;
  return installed;
}

function publishAppImage(
  version = '2.0.0',
  extra: { stagingPercentage?: number; releaseNotes?: string } = {},
) {
  return writeRelease(feedDir, {
    version,
    channelFile: linuxChannelFile('latest'),
    artifact: { name: APPIMAGE, bytes: newBytes, blockMap: 'embedded' },
    ...extra,
  });
}

function engineFor(updater: AppImageUpdater | DebUpdater, prefs = PREFS): AppUpdaterEngine {
  const engine = new AppUpdaterEngine(onNode(updater));
  engine.configure(prefs);
  return engine;
}

function pending(): string[] {
  const folder = join(app.cacheDir, 'pending');
  return existsSync(folder) ? readdirSync(folder).filter((name) => !name.startsWith('.')) : [];
}

beforeEach(() => {
  feed.requests.length = 0;
  feed.faults.clear();
});
afterEach(() => feed.faults.clear());

describe('the AppImage updater', () => {
  it('finds an update with its notes per language, downloads it differentially and verifies it', async () => {
    installAppImage();
    const served = publishAppImage('2.0.0', { releaseNotes: '[en]\nFaster.\n[zh-CN]\n更快。' });
    const engine = engineFor(new AppImageUpdater(null, app));
    const found = await engine.check();
    expect(found).toMatchObject({ version: '2.0.0', notes: { en: 'Faster.', 'zh-CN': '更快。' } });
    const progress: number[] = [];
    await engine.download((p) => progress.push(p));
    const [file] = pending().filter((n) => n.endsWith('.AppImage'));
    expect(sha512(readFileSync(join(app.cacheDir, 'pending', file!)))).toBe(sha512(served));
    // Differential: the blockmap's tail and the two changed blocks, never the whole file.
    const fileRequests = feed.requests.filter((r) => r.file === APPIMAGE);
    expect(fileRequests.every((r) => r.status === 206)).toBe(true);
    const fetched = fileRequests.reduce((n, r) => n + r.bytes, 0);
    expect(fetched).toBeLessThan(served.length / 4);
  });

  it('says nothing is newer when the feed has this version', async () => {
    installAppImage('2.0.0');
    publishAppImage('2.0.0');
    expect(await engineFor(new AppImageUpdater(null, app)).check()).toBeNull();
  });

  it('refuses a downgrade', async () => {
    installAppImage('3.0.0');
    publishAppImage('2.0.0');
    expect(await engineFor(new AppImageUpdater(null, app)).check()).toBeNull();
  });

  it('falls back to the whole file when the differential download fails, and still verifies it', async () => {
    const installed = installAppImage();
    // The installed AppImage damaged: its blocks no longer match its blockmap.
    const damaged = readFileSync(installed);
    damaged.fill(0, 0, 64 * 1024);
    writeFileSync(installed, damaged);
    const served = publishAppImage();
    const engine = engineFor(new AppImageUpdater(null, app));
    await engine.check();
    await engine.download(() => undefined);
    const whole = feed.requests.filter((r) => r.file === APPIMAGE && r.status === 200);
    expect(whole).toHaveLength(1);
    const [file] = pending().filter((n) => n.endsWith('.AppImage'));
    expect(sha512(readFileSync(join(app.cacheDir, 'pending', file!)))).toBe(sha512(served));
  });

  it('refuses a tampered file, differential and whole, and leaves nothing in the cache', async () => {
    installAppImage();
    publishAppImage();
    feed.faults.set(APPIMAGE, 'tamper');
    const engine = engineFor(new AppImageUpdater(null, app));
    await engine.check();
    await expect(engine.download(() => undefined)).rejects.toThrow(/sha512 checksum mismatch/);
    // The differential try (ranges) failed its check, then the whole file (200) failed it too.
    const fileRequests = feed.requests.filter((r) => r.file === APPIMAGE);
    expect(fileRequests.some((r) => r.status === 206)).toBe(true);
    expect(fileRequests.some((r) => r.status === 200)).toBe(true);
    expect(pending().filter((n) => n.endsWith('.AppImage'))).toEqual([]);
  });

  it('reuses a download already in the cache instead of fetching it again', async () => {
    installAppImage();
    publishAppImage();
    await (async (engine) => {
      await engine.check();
      await engine.download(() => undefined);
    })(engineFor(new AppImageUpdater(null, app)));
    feed.requests.length = 0;
    // The studio started again before installing: a new updater on the same cache.
    const again = engineFor(new AppImageUpdater(null, app));
    await again.check();
    await again.download(() => undefined);
    expect(feed.requests.filter((r) => r.file === APPIMAGE)).toEqual([]);
  });

  it('honours stagingPercentage by the updater id: a user inside the rollout gets it, one outside does not', async () => {
    installAppImage();
    publishAppImage('2.0.0', { stagingPercentage: 30 });
    writeUpdaterId(app, 20);
    expect(await engineFor(new AppImageUpdater(null, app)).check()).toMatchObject({ version: '2.0.0' });
    writeUpdaterId(app, 45);
    expect(await engineFor(new AppImageUpdater(null, app)).check()).toBeNull();
  });

  it('offers the beta channel only to those who chose it', async () => {
    installAppImage();
    publishAppImage('1.1.0');
    writeRelease(feedDir, {
      version: '1.2.0-beta.1',
      channelFile: linuxChannelFile('beta'),
      artifact: { name: APPIMAGE, bytes: newBytes, blockMap: 'embedded' },
    });
    expect(await engineFor(new AppImageUpdater(null, app)).check()).toMatchObject({ version: '1.1.0' });
    const beta = engineFor(new AppImageUpdater(null, app), { ...PREFS, channel: 'beta' });
    expect(await beta.check()).toMatchObject({ version: '1.2.0-beta.1' });
  });

  it('reports a server error on the feed as a failed check', async () => {
    installAppImage();
    publishAppImage();
    feed.faults.set(linuxChannelFile('latest'), 'error');
    await expect(engineFor(new AppImageUpdater(null, app)).check()).rejects.toThrow(/500/);
  });
});

describe('the deb updater', () => {
  function installDeb(): void {
    dir = mkdtempSync(join(tmpdir(), 'studio-installed-deb-'));
    app = fakeApp(dir, '1.0.0', feed.url);
  }

  function publishDeb(): Buffer {
    return writeRelease(feedDir, {
      version: '2.0.0',
      channelFile: linuxChannelFile('latest'),
      artifact: { name: DEB, bytes: newBytes, blockMap: 'none' },
    });
  }

  it('downloads the whole package and verifies it', async () => {
    installDeb();
    const served = publishDeb();
    const engine = engineFor(new DebUpdater(null, app));
    expect(await engine.check()).toMatchObject({ version: '2.0.0' });
    await engine.download(() => undefined);
    const [file] = pending().filter((n) => n.endsWith('.deb'));
    expect(sha512(readFileSync(join(app.cacheDir, 'pending', file!)))).toBe(sha512(served));
  });

  it('refuses a download cut short, and leaves nothing in the cache', async () => {
    installDeb();
    publishDeb();
    feed.faults.set(DEB, 'truncate');
    const engine = engineFor(new DebUpdater(null, app));
    await engine.check();
    await expect(engine.download(() => undefined)).rejects.toThrow();
    expect(pending().filter((n) => n.endsWith('.deb'))).toEqual([]);
  });

  it('refuses a tampered package', async () => {
    installDeb();
    publishDeb();
    feed.faults.set(DEB, 'tamper');
    const engine = engineFor(new DebUpdater(null, app));
    await engine.check();
    await expect(engine.download(() => undefined)).rejects.toThrow(/sha512 checksum mismatch/);
    expect(pending().filter((n) => n.endsWith('.deb'))).toEqual([]);
  });
});
