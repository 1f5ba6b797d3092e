import type { ReleaseNotes, UpdatePreferences } from '../../../src-shared/updates';

export interface FoundUpdate {
  version: string;
  notes: ReleaseNotes;
  releaseDate?: string;
}

/**
 * What the update service needs of an updater: electron-updater in the desktop app
 * (app-updater-engine.ts), a stand-in in browser mode, a scripted one in tests. The service decides
 * when; the engine does the feed, the download and its verification.
 */
export interface UpdaterEngine {
  /** Applied before every check: the channel, and whether to install when the studio quits. */
  configure(preferences: UpdatePreferences): void;
  /** A newer version for this copy (the channel and the staged rollout considered), or null. */
  check(): Promise<FoundUpdate | null>;
  /** Downloads the update the last check found and verifies it (sha512) before it counts as ready. */
  download(onProgress: (percent: number) => void): Promise<void>;
  /** Quits, installs the downloaded update and starts the new version. */
  install(): void;
}
