import Conf from 'conf';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSecretStore } from '../services/secrets/secret-store';
import { makeDirSync } from '../services/library/atomic-file';
import { flushedStore } from '../services/settings/key-value-store';
import { createStudioServices, type StudioServices } from '../services/studio-services';
import { DemoUpdaterEngine } from '../services/updates/demo-engine';
import { startWebHost, type WebHost } from './web-host';

export interface BrowserModeOptions {
  port?: number;
  dataDir?: string;
  rendererDir?: string;
  token?: string;
  sandboxTimeScale?: number;
}

export function defaultDataDir(): string {
  if (process.env.STUDIO_DATA_DIR) return resolve(process.env.STUDIO_DATA_DIR);
  const base = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'batch-image-studio');
}

/** The built renderer: beside this bundle when built, under out/ when run from sources. */
function defaultRendererDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', 'renderer'), join(process.cwd(), 'out', 'renderer')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[candidates.length - 1]!;
}

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Browser mode: the desktop app's services with conf and a 0600 key file, behind the web host. */
export async function startBrowserMode(
  options: BrowserModeOptions = {},
): Promise<{ host: WebHost; services: StudioServices }> {
  const dataDir = options.dataDir ?? defaultDataDir();
  makeDirSync(dataDir);
  const store = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    configName: 'settings',
    projectName: 'batch-image-studio',
  });
  const services = await createStudioServices({
    host: 'browser',
    version: version(),
    dataDir,
    store: flushedStore(store),
    secrets: new FileSecretStore(dataDir),
    sandboxTimeScale:
      options.sandboxTimeScale ?? (Number(process.env.STUDIO_SANDBOX_TIME_SCALE) || undefined),
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
  });
  const host = await startWebHost({
    services,
    rendererDir: options.rendererDir ?? defaultRendererDir(),
    port: options.port,
    token: options.token,
  });
  return { host, services };
}
