import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { logCaught } from '../services/log/studio-log';
import type { StudioServices } from '../services/studio-services';
import type { ServicesGate } from './services-start';

type HostedServices = Pick<StudioServices, 'dispatch' | 'events'> &
  Partial<Pick<StudioServices, 'downloads' | 'images'>>;

// The services started first (first-services.ts): the events, and the first screen's calls.
type FirstServices = Pick<StudioServices, 'dispatch' | 'events'> & { answers(method: string): boolean };

export interface WebHostOptions {
  /**
   * What the API answers from. It may still be starting: the host listens (and its address can be
   * printed) at once, the page loads meanwhile, and calls wait for the services.
   */
  services: HostedServices | Promise<HostedServices>;
  /** Started before the rest: the event stream and the first screen's calls are served from them. */
  first?: Promise<FirstServices>;
  rendererDir: string;
  port?: number;
  /** Fixed token for tests; a fresh random one per run otherwise. */
  token?: string;
  /** Told of the page's files being sent and of calls waiting, when the services start late (see services-start.ts). */
  gate?: ServicesGate;
  firstCalls?: ServicesGate /* told of the first screen's calls: the rest starts after them */;
}

export interface WebHost {
  /** The URL to open: it carries the token in the fragment, which browsers never send to a server. */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

/**
 * The largest API call taken: a reference image or realtime inputs of up to about 48 MB, sent as
 * base64 in JSON. The gateway takes references of 10 MB at most, so legitimate calls fit with
 * room; a larger body is refused before it is read, so no client can make the studio hold it.
 */
export const MAX_API_BODY_BYTES = 64 * 1024 * 1024;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

/** The same policy as the desktop window: nothing remote, no inline script, no framing. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  json(res, status, { error: { code, message, retryable: false, source: 'studio' } });
}

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

const TOO_LARGE = Symbol('too large');

/**
 * Reads a body up to the limit. Past it, stops reading and drops what it holds (a chunked body
 * has no length to refuse up front); the request is not destroyed, so the 413 still reaches the
 * client.
 */
function readBody(req: IncomingMessage): Promise<string | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_API_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      chunks = [];
      resolve(TOO_LARGE);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

/** How long the rest of a refused body is read and dropped before the connection is cut. */
const LINGER_MS = 2_000;

/**
 * Answers 413. A client still sending would get a reset instead of the answer if the connection
 * closed at once, so the rest of the body is read and dropped, never kept, for a moment first.
 */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => {
    const hangUp = setTimeout(() => req.socket.destroy(), LINGER_MS);
    hangUp.unref();
    req.once('end', () => clearTimeout(hangUp));
    req.resume();
  });
  refuse(
    res,
    413,
    'STUDIO_BODY_TOO_LARGE',
    `The request is larger than ${MAX_API_BODY_BYTES / 1024 / 1024} MB, the most the studio takes in one call.`,
  );
}

const HTTP_STATUS_OF: Record<string, number> = { STUDIO_INVALID_INPUT: 400, STUDIO_UNKNOWN_METHOD: 404 };

/**
 * Browser mode: serves the built renderer and the StudioApi on loopback. Every /api request needs
 * the per-run token as a Bearer header, and a request from a foreign origin or a foreign Host
 * (a DNS-rebinding page) is refused even with it.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const services = Promise.resolve(options.services);
  /** The services, once started: whatever waits for them says so, which may start them. */
  const ready = () => {
    options.gate?.wanted();
    return services;
  };
  // A start that failed is reported by whoever made the services; calls then answer 500.
  services.catch(() => undefined);
  options.first?.catch(() => undefined);
  const rendererRoot = resolve(options.rendererDir);
  // An <img> cannot send the Bearer header, so a token-authenticated call trades it for this
  // HttpOnly cookie, which only authorizes images; the token itself never goes into a URL.
  const imageSecret = randomBytes(24).toString('base64url');
  let imageCookie = '';
  let origin = '';
  let allowedHosts: string[] = [];

  function bearerOf(req: IncomingMessage): string | undefined {
    const auth = req.headers.authorization;
    return auth?.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
  }

  /** A request from a foreign origin or to a foreign Host (a DNS-rebinding page) is refused, with any credential. */
  function refusedForeign(req: IncomingMessage, res: ServerResponse): boolean {
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && !allowedHosts.some((h) => requestOrigin === `http://${h}`)) {
      refuse(res, 403, 'STUDIO_FOREIGN_ORIGIN', 'Calls from other origins are refused.');
      return true;
    }
    if (!allowedHosts.includes(String(req.headers.host))) {
      refuse(res, 403, 'STUDIO_FOREIGN_HOST', 'Calls must address the studio by its loopback address.');
      return true;
    }
    return false;
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (!sameToken(bearerOf(req), token))
      return refuse(res, 401, 'STUDIO_UNAUTHORIZED', 'This call needs the token of this run.');
    if (refusedForeign(req, res)) return;

    if (path === '/api/session' && req.method === 'POST') {
      res.setHeader('set-cookie', `${imageCookie}=${imageSecret}; HttpOnly; SameSite=Strict; Path=/`);
      return json(res, 200, { result: true });
    }
    if (path === '/api/events' && req.method === 'GET')
      return events(req, res, await (options.first ?? ready()));
    const exportId = /^\/api\/exports\/([^/]+)$/.exec(path)?.[1];
    if (exportId !== undefined && req.method === 'GET') return exportDownload(res, exportId, await ready());
    const method = path.slice('/api/'.length);
    if (req.method !== 'POST')
      return refuse(res, 405, 'STUDIO_METHOD_NOT_ALLOWED', 'Call methods with POST.');
    if (Number(req.headers['content-length']) > MAX_API_BODY_BYTES) return refuseTooLarge(req, res);
    let text: string | typeof TOO_LARGE;
    try {
      text = await readBody(req);
    } catch {
      return refuse(res, 400, 'STUDIO_INVALID_INPUT', 'The request body could not be read in full.');
    }
    if (text === TOO_LARGE) return refuseTooLarge(req, res);
    let input: unknown;
    try {
      input = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      // The parser's own words ("Unexpected token … at position 12") are for no one: say it plainly.
      return refuse(res, 400, 'STUDIO_INVALID_INPUT', 'The request body is not valid JSON.');
    }
    // The first screen's calls are answered before the rest starts, which waits until they are out.
    const early = (await options.first)?.answers(method) ? await options.first : undefined;
    const answering = early && options.firstCalls?.sending();
    const result = await (early ?? (await ready())).dispatch(method, input).finally(() => {
      if (answering) options.firstCalls?.wanted();
      answering?.();
    });
    if (result.ok) return json(res, 200, { result: result.value });
    json(res, HTTP_STATUS_OF[result.error.code] ?? 422, { error: result.error });
  }

  /** A ZIP or contact sheet prepared by an export, streamed from disk once and then deleted. */
  function exportDownload(res: ServerResponse, id: string, services: HostedServices): void {
    const prepared = services.downloads?.take(id);
    const size = prepared && statSync(prepared.file, { throwIfNoEntry: false })?.size;
    if (!prepared || size === undefined) {
      return refuse(res, 404, 'STUDIO_EXPORT_GONE', 'This export was already downloaded or has expired.');
    }
    res.writeHead(200, {
      'content-type': prepared.name.endsWith('.pdf') ? 'application/pdf' : 'application/zip',
      'content-length': size,
      'content-disposition': `attachment; filename="${prepared.name.replace(/[^\w.-]/g, '_')}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    const file = createReadStream(prepared.file);
    file.on('error', (err) => {
      logCaught('export download', err);
      res.destroy();
    });
    res.on('close', () => {
      file.destroy();
      services.downloads?.finished(prepared);
    });
    file.pipe(res);
  }

  /** GET /images/…: the same image paths as the desktop's studio-image: scheme, with the session cookie. */
  async function image(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const cookie = /(?:^|;\s*)([^=;\s]+)=([^;]*)/g;
    let given: string | undefined;
    for (const m of String(req.headers.cookie ?? '').matchAll(cookie)) if (m[1] === imageCookie) given = m[2];
    if (!sameToken(given, imageSecret) && !sameToken(bearerOf(req), token))
      return refuse(res, 401, 'STUDIO_UNAUTHORIZED', 'Images need the session of this run.');
    if (refusedForeign(req, res)) return;
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return refuse(res, 405, 'STUDIO_METHOD_NOT_ALLOWED', 'Images are read with GET.');
    const { images } = await ready();
    if (!images) return refuse(res, 404, 'STUDIO_IMAGE_NOT_FOUND', 'There is no such image.');
    // A closed response before its answer is a browser that gave up on the image (scrolled past).
    const gaveUp = new AbortController();
    res.on('close', () => gaveUp.abort());
    const answer = await images.answer({
      path,
      ifNoneMatch: req.headers['if-none-match'],
      signal: gaveUp.signal,
    });
    if (res.destroyed) return;
    if ('code' in answer) return refuse(res, answer.status, answer.code, answer.message);
    res.writeHead(answer.status, { ...answer.headers, 'x-content-type-options': 'nosniff' });
    if (answer.status === 304 || req.method === 'HEAD') return void res.end();
    const body = answer.body();
    body.on('error', (err) => {
      logCaught(`image ${path}`, err);
      res.destroy();
    });
    res.on('close', () => body.destroy());
    body.pipe(res);
  }

  function events(req: IncomingMessage, res: ServerResponse, services: HostedServices): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    const unsubscribe = services.events.subscribe((event, payload) => {
      res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': ping\n\n'), 15_000);
    req.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  }

  function staticFile(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const relative = normalize(decodeURIComponent(path)).replace(/^([/\\])+/, '');
    let file = join(rendererRoot, relative);
    if (file !== rendererRoot && !file.startsWith(rendererRoot + sep)) {
      res.writeHead(404).end();
      return;
    }
    let stat = statSync(file, { throwIfNoEntry: false });
    if (!stat || stat.isDirectory()) {
      // One page app: unknown paths get the page, so reloads keep working.
      file = join(rendererRoot, 'index.html');
      stat = statSync(file, { throwIfNoEntry: false });
    }
    if (!stat) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The studio is not built yet. Run "npm run build" first.');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': stat.size,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cache-control': extname(file) === '.html' ? 'no-store' : 'max-age=3600',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const sent = options.gate?.sending();
    if (sent) res.once('close', sent);
    // A script sent is a page loading: its calls follow once it has run, and the services start as
    // soon as its other files are sent, while the browser runs them, rather than at its first call.
    if (extname(file) === '.js') res.once('close', () => options.gate?.wanted());
    createReadStream(file).pipe(res);
  }

  const server = createServer((req, res) => {
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://studio.local').pathname;
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (path.startsWith('/images/')) {
      // The raw path: ids are percent-encoded segments, decoded one by one by the image routes.
      const rawPath = (req.url ?? '/').split('?')[0]!;
      image(req, res, rawPath).catch((err: unknown) => {
        logCaught(`web host image`, err);
        if (!res.headersSent) refuse(res, 500, 'STUDIO_INTERNAL', 'The studio failed to answer.');
        else res.destroy();
      });
      return;
    }
    if (path === '/api' || path.startsWith('/api/')) {
      api(req, res, path).catch((err: unknown) => {
        logCaught(`web host ${path}`, err);
        if (!res.headersSent) refuse(res, 500, 'STUDIO_INTERNAL', 'The studio failed to answer.');
        else res.destroy();
      });
      return;
    }
    try {
      staticFile(req, res, path);
    } catch (err) {
      logCaught(`web host ${path}`, err);
      if (!res.headersSent) res.writeHead(404).end();
    }
  });

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolvePromise());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  // Cookies ignore ports: each run's name is its own, so two studios on one machine never clash.
  imageCookie = `studio_images_${port}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
