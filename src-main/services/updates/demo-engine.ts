import type { FoundUpdate, UpdaterEngine } from './updater-engine';

/**
 * Browser mode's stand-in, so the banner and Settings can be seen and tested there: it "finds" the
 * version it was given, "downloads" it at once and installs nothing. Only when asked for by
 * STUDIO_UPDATES_DEMO; otherwise browser mode has no engine at all.
 */
export class DemoUpdaterEngine implements UpdaterEngine {
  constructor(private version: string) {}

  configure(): void {}

  check(): Promise<FoundUpdate | null> {
    return Promise.resolve({
      version: this.version,
      notes: {
        en: `What's new in ${this.version}: faster library scrolling.`,
        'zh-CN': `${this.version} 的新内容：图库滚动更流畅。`,
      },
    });
  }

  download(onProgress: (percent: number) => void): Promise<void> {
    onProgress(100);
    return Promise.resolve();
  }

  install(): void {}
}
