import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGunzip } from 'node:zlib';
import type { FaultKind } from './faults';

/** One HTTP request and its answer, as every route handler sees it. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  requestId: string;
  /** The fault the switch picked for this request, if any; the route decides how it shows. */
  fault?: FaultKind;
}

export class BodyTooLarge extends Error {}
export class BodyUnreadable extends Error {}

/** Reads the whole body, gunzipping when asked, and stops reading at `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new BodyTooLarge(`body of ${declared} bytes is over the limit of ${limit}`);
  }
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') {
    req.resume();
    throw new BodyUnreadable(`content-encoding "${encoding}" is not supported; send identity or gzip`);
  }
  const source: NodeJS.ReadableStream = encoding === 'gzip' ? req.pipe(createGunzip()) : req;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > limit) {
        req.resume();
        throw new BodyTooLarge(`body is over the limit of ${limit} bytes`);
      }
      chunks.push(buf);
    }
  } catch (err) {
    if (err instanceof BodyTooLarge) throw err;
    throw new BodyUnreadable(`the body could not be read: ${(err as Error).message}`);
  }
  return Buffer.concat(chunks);
}

export class InvalidJson extends Error {}

export function parseJson(body: Buffer): unknown {
  if (body.length === 0) throw new InvalidJson('the request body is empty; send a JSON object');
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new InvalidJson(`the request body is not valid JSON: ${(err as Error).message}`);
  }
}

export function sendJson(
  ex: Exchange,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (ex.res.headersSent || ex.res.destroyed) return;
  const text = JSON.stringify(body);
  ex.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  ex.res.end(text);
}

export function sendEmpty(ex: Exchange, status: number): void {
  if (ex.res.headersSent || ex.res.destroyed) return;
  ex.res.writeHead(status);
  ex.res.end();
}

/** Keys come in several headers; this reads one whatever its case, ignoring blanks. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}

export function bearer(req: IncomingMessage): string | undefined {
  const auth = header(req, 'authorization');
  const match = auth && /^Bearer\s+(.+)$/i.exec(auth);
  return match ? match[1]!.trim() : undefined;
}

/** Path segments after a prefix, percent-decoded; undefined when a segment is malformed. */
export function segmentsAfter(pathname: string, prefix: string): string[] | undefined {
  const rest = pathname.slice(prefix.length).replace(/^\/+/, '');
  if (!rest) return [];
  try {
    return rest.split('/').map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}
