import { afterEach, describe, expect, it } from 'vitest';
import { translatorIn } from '../../src-shared/i18n/translator';
import { menuCheckText } from '../../src-shared/update-text';
import type { UpdateAvailability, UpdateStatus } from '../../src-shared/updates';
import { UpdateService } from '../services/updates/update-service';
import type { FoundUpdate, UpdaterEngine } from '../services/updates/updater-engine';

// The dialog after the menu's "Check for Updates…" (app-updates.ts) says what the check found, in
// the words Settings and the banner use, from the same catalogue.

/** A feed that answers what the test sets; `hold` keeps the check open until the test ends it. */
class FeedEngine implements UpdaterEngine {
  answer: () => Promise<FoundUpdate | null> = () => Promise.resolve(null);
  configure(): void {}
  check(): Promise<FoundUpdate | null> {
    return this.answer();
  }
  download(): Promise<void> {
    return Promise.resolve();
  }
  install(): void {}
}

const started: UpdateService[] = [];
afterEach(() => started.splice(0).forEach((s) => s.stop()));

function service(engine: FeedEngine, availability: UpdateAvailability = { kind: 'ready' }, stored = {}) {
  const data: Record<string, unknown> = { updates: stored };
  const updates = new UpdateService({
    currentVersion: '1.0.0',
    availability,
    engine: availability.kind === 'ready' ? engine : undefined,
    store: { get: (k) => data[k], set: (k, v) => void (data[k] = v), delete: (k) => void delete data[k] },
    work: () => ({ downloads: 0, submissions: 0, kbUploads: 0 }),
    publish: () => undefined,
  });
  started.push(updates);
  return updates;
}

const inEnglish = (status: UpdateStatus) => menuCheckText(translatorIn('en'), status);
const inChinese = (status: UpdateStatus) => menuCheckText(translatorIn('zh-CN'), status);

describe('the answer to Check for Updates… in the menu', () => {
  it('says the studio is up to date when the feed has nothing newer', async () => {
    const status = await service(new FeedEngine()).check();
    expect(inEnglish(status)).toBe('Batch Image Studio 1.0.0 is the newest version.');
    expect(inChinese(status)).toBe('批量图像工作室 1.0.0 已是最新版本。');
  });

  it('says nothing when an update was found: the banner shows it', async () => {
    const engine = new FeedEngine();
    engine.answer = () => Promise.resolve({ version: '2.0.0', notes: {} });
    expect(inEnglish(await service(engine).check())).toBeUndefined();
  });

  it('says the check failed, and why', async () => {
    const engine = new FeedEngine();
    engine.answer = () => Promise.reject(new Error('The feed did not answer.'));
    const status = await service(engine).check();
    expect(inEnglish(status)).toBe(
      'The last check failed: The feed did not answer. The studio tries again later.',
    );
    expect(inChinese(status)).toBe('上次检查失败：The feed did not answer. 工作室稍后会再试。');
  });

  it('says why this copy cannot check: updates off, no feed, or a package manager', async () => {
    const off = await service(new FeedEngine(), { kind: 'ready' }, { preferences: { mode: 'off' } }).check();
    expect(inEnglish(off)).toBe('Updates are off: the studio never looks for them.');
    const noFeed = await service(new FeedEngine(), { kind: 'no-feed' }).check();
    expect(inChinese(noFeed)).toBe('此版本构建时没有更新地址，因此从不检查更新。');
    const deb = { kind: 'package-manager', detail: 'sudo apt upgrade batch-image-studio' } as const;
    expect(inEnglish(await service(new FeedEngine(), deb).check())).toBe(
      'Installed from the .deb package: update it with your package manager: sudo apt upgrade batch-image-studio',
    );
  });

  it('says a check is under way when one started before the menu asked, not that all is up to date', async () => {
    const engine = new FeedEngine();
    let answer: (found: FoundUpdate | null) => void = () => undefined;
    engine.answer = () => new Promise((resolve) => (answer = resolve));
    const updates = service(engine);
    const first = updates.check();
    expect(inEnglish(await updates.check())).toBe('Checking for updates…');
    answer(null);
    expect(inEnglish(await first)).toBe('Batch Image Studio 1.0.0 is the newest version.');
  });
});
