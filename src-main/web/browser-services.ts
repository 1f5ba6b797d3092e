import Conf from 'conf';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirSync } from '../services/storage/atomic-file';
import { FileSecretStore } from '../services/secrets/secret-store';
import { flushedStore } from '../services/settings/key-value-store';
import { startStudio, type StartingStudio } from '../services/studio-start';
import { DemoUpdaterEngine } from '../services/updates/demo-engine';

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Browser mode's services: the desktop app's, with conf and a 0600 key file. Loaded by
 * browser-mode.ts once its host listens, so none of this (every service and what they load) is on
 * the way to the address being printed. The first screen's services start at once, the rest when
 * `before` lets them (studio-start.ts).
 */
export function startBrowserServices(
  dataDir: string,
  sandboxTimeScale: number | undefined,
  before: () => Promise<unknown>,
): StartingStudio {
  makeDirSync(dataDir);
  const store = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    configName: 'settings',
    projectName: 'batch-image-studio',
  });
  return startStudio(
    {
      host: 'browser',
      version: version(),
      dataDir,
      store: flushedStore(store),
      secrets: new FileSecretStore(dataDir),
      sandboxTimeScale: sandboxTimeScale ?? (Number(process.env.STUDIO_SANDBOX_TIME_SCALE) || undefined),
      // Browser mode never updates itself; STUDIO_UPDATES_DEMO=<version> shows the banner's flow with
      // a made-up version, so the e2e tests (and screenshots) can see it, inert as it is.
      updates: process.env.STUDIO_UPDATES_DEMO
        ? {
            availability: { kind: 'demo' },
            engine: new DemoUpdaterEngine(process.env.STUDIO_UPDATES_DEMO.slice(0, 40)),
          }
        : { availability: { kind: 'browser' } },
      // Tests pin the sandbox's random item failures, and switch on a gateway that repeats keys in
      // its errors or deflates its ZIPs; people get the realistic default.
      sandbox: {
        config: {
          ...(process.env.STUDIO_SANDBOX_ITEM_FAILURE_RATE
            ? { itemFailureRate: Number(process.env.STUDIO_SANDBOX_ITEM_FAILURE_RATE) }
            : {}),
          ...(process.env.STUDIO_SANDBOX_ECHO_KEY === '1' ? { echoKeyInErrors: true } : {}),
          ...(process.env.STUDIO_SANDBOX_DEFLATE_ZIPS === '1' ? { deflateZips: true } : {}),
          // The download benchmark's large batches: quick 1K renders, each carrying MBs of noise.
          ...(process.env.STUDIO_SANDBOX_IMAGE_PADDING_BYTES
            ? { imagePaddingBytes: Number(process.env.STUDIO_SANDBOX_IMAGE_PADDING_BYTES) }
            : {}),
        },
      },
    },
    before,
  );
}
