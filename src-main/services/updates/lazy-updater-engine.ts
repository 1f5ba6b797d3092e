import type { UpdatePreferences } from '../../../src-shared/updates';
import type { FoundUpdate, UpdaterEngine } from './updater-engine';

/**
 * An updater loaded at its first check, not at start: electron-updater and what it requires take
 * 120–300 ms to load, which the services (and every call the window makes) would otherwise wait
 * for, while the first check comes half a minute after start. Preferences given before it loads
 * are applied when it does; a load that fails is tried again at the next check.
 */
export class LazyUpdaterEngine implements UpdaterEngine {
  private loading: Promise<UpdaterEngine> | undefined;
  private loaded: UpdaterEngine | undefined;
  private preferences: UpdatePreferences | undefined;

  constructor(private readonly load: () => Promise<UpdaterEngine>) {}

  configure(preferences: UpdatePreferences): void {
    this.preferences = preferences;
    this.loaded?.configure(preferences);
  }

  async check(): Promise<FoundUpdate | null> {
    return (await this.engine()).check();
  }

  async download(onProgress: (percent: number) => void): Promise<void> {
    return (await this.engine()).download(onProgress);
  }

  install(): void {
    // Only ever after a download, which loaded the updater.
    if (!this.loaded) throw new Error('There is no downloaded update to install.');
    this.loaded.install();
  }

  private engine(): Promise<UpdaterEngine> {
    this.loading ??= this.load().then(
      (engine) => {
        if (this.preferences) engine.configure(this.preferences);
        this.loaded = engine;
        return engine;
      },
      (err: unknown) => {
        this.loading = undefined;
        throw err;
      },
    );
    return this.loading;
  }
}
