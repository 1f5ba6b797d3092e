import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StudioServices } from '../services/studio-services';
import { servicesGate } from './services-start';
import { warmUp } from './services-warm-up';
import { startWebHost, type WebHost } from './web-host';

/** After the first screen's last call, how long for the next (drafts.get follows drafts.list). */
const REST_QUIET_MS = 50;

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

/**
 * Browser mode: the web host listens first, so its address is known (and printed, `onAddress`)
 * within a bare server's start; the page loads its files, and the services' packages load a step
 * at a time between them (services-warm-up.ts), then the services start at a quiet moment
 * (services-start.ts): the first screen's first, answering its calls, then the rest, which the
 * other calls wait for.
 */
export async function startBrowserMode(
  options: BrowserModeOptions = {},
  onAddress?: (url: string) => void,
): Promise<{ host: WebHost; services: StudioServices }> {
  const dataDir = options.dataDir ?? defaultDataDir();
  // Loaded once the host listens and the page is in (services-start.ts): loading them (the
  // services and every library they use) takes the thread for a good part of a second, which
  // neither the address nor the page's files wait for.
  let begin!: () => void;
  let warmedUp: Promise<void> = Promise.resolve();
  // Armed once the host listens: its timers run from then, and a host that does not start leaves
  // no services loading with nothing to close them.
  const gate = servicesGate(() => begin());
  // The first screen's services first; the rest (and its code, which holds the thread for a good
  // part of a second) once the first screen's calls are answered and a quiet moment follows (the
  // draft asked for after the list of drafts comes within it), or a second after the first
  // services started when no page calls; then at a moment no page file is being sent.
  let restMay!: () => void;
  const restMayStart = new Promise<void>((resolve) => (restMay = resolve));
  const firstCalls = servicesGate(() => restMay(), { quietMs: REST_QUIET_MS });
  const starting = new Promise<void>((resolveBegin) => (begin = resolveBegin))
    .then(() => warmedUp)
    .then(() => import('./browser-services'))
    .then((m) =>
      m.startBrowserServices(dataDir, options.sandboxTimeScale, () => {
        firstCalls.arm();
        return restMayStart.then(() => gate.idle());
      }),
    );
  const services = starting.then((s) => s.all);
  // A host that does not start throws here, with nothing to close: the services begin only once it listens.
  const host = await startWebHost({
    services,
    first: starting.then((s) => s.first),
    firstCalls,
    rendererDir: options.rendererDir ?? defaultRendererDir(),
    port: options.port,
    token: options.token,
    gate,
  });
  onAddress?.(host.url);
  gate.arm();
  // Their packages load meanwhile, a step at a time between the page's files (services-warm-up.ts).
  // Loaded, they start at the next quiet moment: what is left is short, and mostly waits on disk.
  warmedUp = warmUp(gate, () => import('./browser-services')).then(() => gate.wanted());
  try {
    return { host, services: await services };
  } catch (err) {
    await host.close();
    throw err;
  }
}
