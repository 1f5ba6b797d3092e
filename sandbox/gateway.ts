import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchError } from './batch/batch-error';
import { BATCH_PREFIX, BatchRoutes } from './batch/batch-routes';
import { SandboxBatches } from './batch/sandbox-batches';
import { DownloadSlots } from './batch/download-slots';
import { resolveConfig, type ConfigOverrides, type SandboxConfig } from './config';
import { sendJson, type Exchange } from './exchange';
import { FaultSwitch, HTTP_FAULTS, type FaultKind } from './faults';
import { KB_PREFIX, KbRoutes } from './kb/kb-routes';
import { RealtimeRoutes } from './realtime/realtime-routes';
import { SandboxStore } from './store';

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Gateway seconds per real second: 100 turns a batch of minutes into seconds. */
  timeScale?: number;
  faults?: string;
  /** Keeps state across restarts when set; in memory otherwise. */
  dataDir?: string;
  config?: ConfigOverrides;
}

export interface Sandbox {
  url: string;
  port: number;
  config: SandboxConfig;
  store: SandboxStore;
  faults: FaultSwitch;
  /**
   * Calls `listener` with every request as it arrives, until the returned function is called:
   * what a client really sent, whatever HTTP client it used.
   */
  onRequest(listener: (req: IncomingMessage) => void): () => void;
  /** Per key: balance, held amount, holds placed and released, batches created. */
  inspect(): SandboxReport;
  close(): Promise<void>;
}

export interface SandboxReport {
  accounts: Record<
    string,
    ReturnType<SandboxStore['account']> & { batches: number; downloadsInFlight: number }
  >;
  kbRecords: Record<string, number>;
  faultsFired: FaultSwitch['fired'];
  /** Requests received per API, faults included. */
  requests: Record<string, number>;
  /**
   * Per batch, the reference images each task received, as the first 32 hex digits of the SHA-256
   * of their bytes: what a client really sent, for checking that a reused image arrived unchanged.
   */
  referenceHashes: Record<string, Record<string, string[]>>;
}

type Family = 'batch' | 'realtime' | 'kb' | 'admin' | 'other';

function familyOf(pathname: string): Family {
  if (pathname === BATCH_PREFIX || pathname.startsWith(`${BATCH_PREFIX}/`)) return 'batch';
  if (pathname.startsWith('/v1beta/') || pathname === '/v1beta' || pathname === '/v1/models')
    return 'realtime';
  if (pathname.startsWith(`${KB_PREFIX}/`)) return 'kb';
  if (pathname.startsWith('/_sandbox/')) return 'admin';
  return 'other';
}

/**
 * Faults only ever set on purpose: `all=R` never picks them, since a late answer would stall a random
 * run for minutes, a not-ready runtime is a deployment state rather than a flaky request, and a wrong
 * image body is a broken gateway that no retry mends, and a stalled download waits out `slow_ms`.
 */
function deliberateFaults(family: Family, method: string, pathname: string): FaultKind[] {
  if (family === 'batch' && method === 'POST' && pathname === BATCH_PREFIX)
    return ['not_ready', 'latecreate'];
  if (family === 'batch' && method === 'GET' && pathname.endsWith('/download')) return ['badimage', 'stall'];
  if (family === 'batch' && method === 'GET' && pathname.endsWith('/content')) return ['badimage'];
  return [];
}

/** The faults that can hit a request, besides the HTTP-level ones. */
function routeFaults(family: Family, method: string, pathname: string): FaultKind[] {
  if (family === 'batch') {
    if (method === 'POST' && pathname === BATCH_PREFIX) {
      return ['lostcreate', 'submit_failed', 'queue_failed', 'hold_failed', 'no_account'];
    }
    if (pathname.endsWith('/download')) return ['truncate'];
    if (pathname.endsWith('/cancel')) return ['cancel_failed'];
  }
  if (family === 'realtime' && method === 'POST' && pathname.includes(':')) return ['noimage', 'capacity'];
  return [];
}

const STATUS_WORDS: Record<number, [string, string]> = {
  429: ['RESOURCE_EXHAUSTED', 'rate limit exceeded; retry later'],
  500: ['INTERNAL', 'internal error'],
  502: ['UNAVAILABLE', 'bad gateway'],
  503: ['UNAVAILABLE', 'the service is overloaded; retry later'],
  504: ['DEADLINE_EXCEEDED', 'the upstream timed out'],
};

/** An injected HTTP failure, in the shape the layer that fails would answer with. */
function sendInjectedStatus(ex: Exchange, family: Family, status: number): void {
  const [word, message] = STATUS_WORDS[status]!;
  if (family === 'realtime') return sendJson(ex, status, { error: { code: status, message, status: word } });
  if (status >= 502) {
    // A proxy in front of the gateway answers these, without the API's envelope.
    const html = `<html><head><title>${status}</title></head><body><center><h1>${status} ${message}</h1></center></body></html>`;
    ex.res.writeHead(status, { 'content-type': 'text/html' });
    ex.res.end(html);
    return;
  }
  if (family === 'kb') return sendJson(ex, status, { code: status, statusText: word, message, data: null });
  const type = status === 429 ? 'rate_limit_error' : 'api_error';
  const code = status === 429 ? 'RATE_LIMITED' : 'INTERNAL_ERROR';
  sendJson(ex, status, { error: { type, code, message } });
}

function sendNotFound(ex: Exchange, family: Family): void {
  const message = `no endpoint answers ${ex.method} ${ex.url.pathname}`;
  if (family === 'realtime') return sendJson(ex, 404, { error: { code: 404, message, status: 'NOT_FOUND' } });
  if (family === 'kb') return sendJson(ex, 200, { code: 404, statusText: 'notFound', message, data: null });
  sendJson(ex, 404, { error: { type: 'invalid_request_error', code: 'NOT_FOUND', message } });
}

function sendInternalError(ex: Exchange, family: Family): void {
  const message = `the sandbox failed to answer; request id ${ex.requestId}`;
  if (family === 'realtime') return sendJson(ex, 500, { error: { code: 500, message, status: 'INTERNAL' } });
  if (family === 'kb')
    return sendJson(ex, 500, { code: 500, statusText: 'internalError', message, data: null });
  sendJson(ex, 500, { error: { type: 'api_error', code: 'INTERNAL_ERROR', message } });
}

function requestIdFor(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  const value = Array.isArray(sent) ? sent[0] : sent;
  // A client-sent id is echoed back, as deployed gateways do, when it is a sane token.
  if (value && /^[\w.:-]{1,128}$/.test(value)) return value;
  return `req_${randomBytes(12).toString('hex')}`;
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = resolveConfig(options.config);
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new Error('the time scale must be a positive number');
  const faults = new FaultSwitch(options.faults);
  const store = new SandboxStore(config, options.dataDir);
  const batches = new SandboxBatches(config, store, timeScale, () =>
    faults.itemFailureRate(config.itemFailureRate),
  );
  const slots = new DownloadSlots(() => config.limits.downloadConcurrency);
  const batchRoutes = new BatchRoutes(
    config,
    store,
    batches,
    slots,
    () => faults.slowMs,
    () => faults.lateMs,
    () => faults.cutAt,
  );
  const realtimeRoutes = new RealtimeRoutes(config, store);
  const kbRoutes = new KbRoutes(config, store);

  const requests: Record<string, number> = {};
  const inspect = (): SandboxReport => ({
    requests: { ...requests },
    accounts: Object.fromEntries(
      [...store.accounts].map(([key, state]) => [
        key,
        {
          ...state,
          batches: [...store.batches.values()].filter((b) => b.key === key).length,
          downloadsInFlight: slots.count(key),
        },
      ]),
    ),
    kbRecords: store.kb.reduce<Record<string, number>>(
      (acc, r) => ({ ...acc, [r.kbId]: (acc[r.kbId] ?? 0) + 1 }),
      {},
    ),
    faultsFired: { ...faults.fired },
    referenceHashes: Object.fromEntries(
      [...store.batches.values()].map((b) => [
        b.id,
        Object.fromEntries(b.tasks.map((t) => [t.customId, t.refs])),
      ]),
    ),
  });

  async function admin(ex: Exchange): Promise<void> {
    const path = ex.url.pathname;
    if (path === '/_sandbox/state' && ex.method === 'GET') return sendJson(ex, 200, inspect());
    if (path === '/_sandbox/faults' && ex.method === 'GET') return sendJson(ex, 200, faults.describe());
    if (path === '/_sandbox/faults' && ex.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const c of ex.req) chunks.push(c as Buffer);
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { spec?: string };
        faults.set(body.spec);
        return sendJson(ex, 200, faults.describe());
      } catch (err) {
        return sendJson(ex, 400, {
          error: { type: 'invalid_request_error', code: 'INVALID_FAULTS', message: (err as Error).message },
        });
      }
    }
    const batchAdmin = /^\/_sandbox\/batches\/([^/]+)\/(vanish|expire)$/.exec(path);
    if (batchAdmin && ex.method === 'POST') {
      const batch = store.batches.get(decodeURIComponent(batchAdmin[1]!));
      if (!batch || batch.recordDeleted) {
        return sendJson(ex, 404, {
          error: { type: 'invalid_request_error', code: 'BATCH_IMAGE_NOT_FOUND', message: 'no such batch' },
        });
      }
      try {
        if (batchAdmin[2] === 'vanish') batches.vanish(batch);
        else batches.expireOutputs(batch);
      } catch (err) {
        if (err instanceof BatchError) return sendJson(ex, err.status, err.body());
        throw err;
      }
      return sendJson(ex, 200, { id: batch.id, status: batch.status, recordDeleted: batch.recordDeleted });
    }
    sendNotFound(ex, 'admin');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = requestIdFor(req);
    res.setHeader('x-request-id', requestId);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.local');
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { type: 'invalid_request_error', code: 'INVALID_PATH', message: 'bad request target' },
        }),
      );
      return;
    }
    const ex: Exchange = { req, res, url, method: (req.method ?? 'GET').toUpperCase(), requestId };
    const family = familyOf(url.pathname);
    requests[family] = (requests[family] ?? 0) + 1;
    try {
      if (family === 'admin') return await admin(ex);
      if (family === 'other') {
        if (url.pathname === '/' && ex.method === 'GET') {
          return sendJson(ex, 200, {
            name: 'Batch Image Studio sandbox gateway',
            apis: { batch: BATCH_PREFIX, realtime: '/v1beta/models', kb: KB_PREFIX },
          });
        }
        return sendNotFound(ex, family);
      }

      ex.fault =
        faults.pick([...HTTP_FAULTS, ...routeFaults(family, ex.method, url.pathname)]) ??
        deliberateFaults(family, ex.method, url.pathname).find((kind) => faults.roll(kind));
      if (ex.fault === 'reset') {
        req.socket.destroy();
        return;
      }
      // Downloads are slow while streaming instead, holding their download slot.
      const streams = family === 'batch' && /\/(download|content)$/.test(url.pathname);
      if (ex.fault === 'slow' && !streams) await new Promise((r) => setTimeout(r, faults.slowMs));
      const status = Number(ex.fault);
      if (Number.isInteger(status)) {
        req.resume();
        return sendInjectedStatus(ex, family, status);
      }

      if (family === 'batch') return await batchRoutes.handle(ex);
      if (family === 'realtime') return await realtimeRoutes.handle(ex);
      return await kbRoutes.handle(ex);
    } catch (err) {
      if (options.dataDir || process.env.SANDBOX_DEBUG) {
        process.stderr.write(
          `sandbox: ${ex.method} ${url.pathname} failed (${requestId}): ${(err as Error).message}\n`,
        );
      }
      if (!res.headersSent) sendInternalError(ex, family);
      else res.destroy();
    }
  }

  const listeners = new Set<(req: IncomingMessage) => void>();
  const server: Server = createServer((req, res) => {
    for (const listener of listeners) listener(req);
    void handle(req, res);
  });
  server.requestTimeout = 0;
  const ticker = setInterval(() => batches.tick(), 50);
  ticker.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host ?? '127.0.0.1';

  return {
    url: `http://${host}:${port}`,
    port,
    config,
    store,
    faults,
    inspect,
    onRequest(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      clearInterval(ticker);
      store.flush();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
