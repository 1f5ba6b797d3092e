import { NsisUpdater } from 'electron-updater';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppUpdaterEngine } from '../services/updates/app-updater-engine';
import { startFeedServer, type FeedServer } from './helpers/updater/feed-server';
import { fakeApp, onNode, PUBLISHER, type FakeApp } from './helpers/updater/real-updaters';
import { nextVersionOf, payload, writeRelease } from './helpers/updater/release-files';

// electron-updater's NSIS updater in plain Node, with the platform set to Windows for this file
// (vitest runs each file in its own process): latest.yml, the separate .blockmap files, the
// installer cached from the last update as the old file, and the code-signature check.

const name = (version: string) => `batch-image-studio-Setup-${version}.exe`;
const SIZE = 512 * 1024;
const oldBytes = payload(7, SIZE);
const newBytes = nextVersionOf(oldBytes, [5, 9, 20], 41);
const sha512 = (data: Buffer) => createHash('sha512').update(data).digest('base64');
const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;

let feedDir: string;
let feed: FeedServer;
let app: FakeApp;
let served: Buffer;
/** What the signature check was asked: the publisher names from app-update.yml, and the file. */
let verified: { names: string[]; file: string }[];

beforeAll(async () => {
  Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
  feedDir = mkdtempSync(join(tmpdir(), 'studio-feed-win-'));
  feed = await startFeedServer(feedDir);
  // 1.0.0's blockmap stays on the feed: the differential download compares against it.
  writeRelease(feedDir, {
    version: '1.0.0',
    channelFile: 'latest.yml',
    artifact: { name: name('1.0.0'), bytes: oldBytes, blockMap: 'separate' },
  });
  served = writeRelease(feedDir, {
    version: '2.0.0',
    channelFile: 'latest.yml',
    artifact: { name: name('2.0.0'), bytes: newBytes, blockMap: 'separate' },
  });
});
afterAll(async () => {
  Object.defineProperty(process, 'platform', platform);
  await feed.close();
});

beforeEach(() => {
  feed.requests.length = 0;
  feed.faults.clear();
  verified = [];
  app = fakeApp(mkdtempSync(join(tmpdir(), 'studio-installed-win-')), '1.0.0', feed.url);
  // NSIS leaves the installer it ran in the updater's cache: the old file of the next differential download.
  mkdirSync(app.cacheDir, { recursive: true });
  writeFileSync(join(app.cacheDir, 'installer.exe'), oldBytes);
});

function engine(verdict: string | null): AppUpdaterEngine {
  const updater = onNode(new NsisUpdater(null, app));
  // PowerShell's Get-AuthenticodeSignature in the app; a stand-in that answers as told here.
  updater.verifyUpdateCodeSignature = (names, file) => {
    verified.push({ names, file });
    return Promise.resolve(verdict);
  };
  const wrapped = new AppUpdaterEngine(updater);
  wrapped.configure({ mode: 'automatic', channel: 'latest', installOnQuit: false });
  return wrapped;
}

function pendingInstallers(): string[] {
  const folder = join(app.cacheDir, 'pending');
  return existsSync(folder) ? readdirSync(folder).filter((n) => n.endsWith('.exe')) : [];
}

describe('the NSIS updater', () => {
  it('downloads differentially from the blockmaps, verifies the sha512 and the publisher', async () => {
    const updates = engine(null);
    expect(await updates.check()).toMatchObject({ version: '2.0.0' });
    await updates.download(() => undefined);
    const [file] = pendingInstallers();
    expect(sha512(readFileSync(join(app.cacheDir, 'pending', file!)))).toBe(sha512(served));
    expect(feed.requests.map((r) => r.file)).toContain(`${name('2.0.0')}.blockmap`);
    const ranges = feed.requests.filter((r) => r.file === name('2.0.0'));
    expect(ranges.every((r) => r.status === 206)).toBe(true);
    expect(ranges.reduce((n, r) => n + r.bytes, 0)).toBe(3 * 16 * 1024);
    expect(verified).toHaveLength(1);
    expect(verified[0]!.names).toEqual([PUBLISHER]);
  });

  it('falls back to the whole installer when the cached one does not match its blockmap', async () => {
    writeFileSync(join(app.cacheDir, 'installer.exe'), payload(8, SIZE));
    const updates = engine(null);
    await updates.check();
    await updates.download(() => undefined);
    expect(feed.requests.filter((r) => r.file === name('2.0.0') && r.status === 200)).toHaveLength(1);
    const [file] = pendingInstallers();
    expect(sha512(readFileSync(join(app.cacheDir, 'pending', file!)))).toBe(sha512(served));
  });

  it('refuses an installer whose signature is not the publisher’s, and clears it from the cache', async () => {
    const updates = engine('not signed by Batch Image Studio contributors');
    await updates.check();
    await expect(updates.download(() => undefined)).rejects.toThrow(/not signed by the application owner/);
    expect(pendingInstallers()).toEqual([]);
  });

  it('refuses a tampered installer before any signature check', async () => {
    feed.faults.set(name('2.0.0'), 'tamper');
    const updates = engine(null);
    await updates.check();
    await expect(updates.download(() => undefined)).rejects.toThrow(/sha512 checksum mismatch/);
    expect(verified).toEqual([]);
    expect(pendingInstallers()).toEqual([]);
  });
});
