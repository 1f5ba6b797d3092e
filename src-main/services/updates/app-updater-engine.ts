import type { AppUpdater, ProgressInfo } from 'electron-updater';
import type { UpdatePreferences } from '../../../src-shared/updates';
import { parseReleaseNotes } from './release-notes';
import type { FoundUpdate, UpdaterEngine } from './updater-engine';

/**
 * electron-updater behind the UpdaterEngine port. Plain Node: the desktop hands it electron-updater's
 * own `autoUpdater`, the tests the same classes (AppImageUpdater, DebUpdater, NsisUpdater) with a
 * fake app, so what the tests run is what ships. The settings below are the rules; each is
 * set here, not left to a default that a later electron-updater might change.
 */
export class AppUpdaterEngine implements UpdaterEngine {
  constructor(private updater: AppUpdater) {
    // The service decides when to download and never installs by itself.
    updater.autoDownload = false;
    updater.autoInstallOnAppQuit = false;
    updater.autoRunAppAfterInstall = true;
    // Blockmap (differential) downloads, with electron-updater's fallback to the whole file; every
    // file, differential or whole, is checked against the feed's sha512 before it counts.
    updater.disableDifferentialDownload = false;
    updater.disableWebInstaller = true;
    updater.allowDowngrade = false;
    updater.fullChangelog = false;
  }

  configure(preferences: UpdatePreferences): void {
    const beta = preferences.channel === 'beta';
    // Setting a channel makes electron-updater allow downgrades; a person leaving the beta keeps
    // their build until a release passes it, so downgrades stay refused.
    this.updater.channel = beta ? 'beta' : 'latest';
    this.updater.allowPrerelease = beta;
    this.updater.allowDowngrade = false;
    this.updater.autoInstallOnAppQuit = preferences.installOnQuit;
  }

  async check(): Promise<FoundUpdate | null> {
    const result = await this.updater.checkForUpdates();
    // null: an unpackaged app; not available: nothing newer, another channel's, or outside the rollout.
    if (!result?.isUpdateAvailable) return null;
    const info = result.updateInfo;
    return {
      version: info.version,
      notes: parseReleaseNotes(info.releaseNotes),
      releaseDate: info.releaseDate,
    };
  }

  async download(onProgress: (percent: number) => void): Promise<void> {
    const listener = (progress: ProgressInfo) => onProgress(Math.min(100, Math.max(0, progress.percent)));
    this.updater.on('download-progress', listener);
    try {
      await this.updater.downloadUpdate();
    } finally {
      this.updater.off('download-progress', listener);
    }
  }

  install(): void {
    // Not silent (Windows shows its installer's progress), and the studio starts again after.
    this.updater.quitAndInstall(false, true);
  }
}
