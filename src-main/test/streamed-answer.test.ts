import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/studio-error';
import { gatewayFetch, readError, type GatewayRequest } from '../services/gateway/gateway-request';
import type { Transport } from '../services/gateway/streamed-answer';

// An answer read as it streams (a batch ZIP, an item's image) comes over node:http or straight
// from a socket, not fetch (streamed-answer.ts, socket-answer.ts). What the studio relied on fetch
// for must still hold over both, over real HTTP: the body whole, redirects followed without the key
// across origins, a cancel, a stall and a cut in words, an error's text with the key taken out.

const KEY = 'sk-streamed/live+9a8b7c';
const servers: Server[] = [];
afterAll(() =>
  Promise.all(
    servers.map((s) => {
      s.closeAllConnections(); // the silent answers' connections are still open
      return new Promise((r) => s.close(r));
    }),
  ),
);

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let transport: Transport = 'node';
const request = (baseUrl: string, path: string, extra: Partial<GatewayRequest> = {}): GatewayRequest => ({
  baseUrl,
  path,
  auth: { header: 'authorization', value: `Bearer ${KEY}` },
  stallMs: 60_000,
  transport,
  ...extra,
});

/** The body as the ZIP's reader takes it, or the error its reading ends with, as the studio words it. */
async function readAll(req: GatewayRequest): Promise<{ bytes: Buffer } | { error: StudioError }> {
  const ex = await gatewayFetch(req);
  const parts: Buffer[] = [];
  try {
    for await (const chunk of ex.chunks()) parts.push(Buffer.from(chunk));
    return { bytes: Buffer.concat(parts) };
  } catch (err) {
    return { error: ex.broke(err) };
  }
}

const megabytes = Buffer.alloc(3 * 1024 * 1024, 7);
const seen: { path: string; authorization?: string; range?: string }[] = [];
const other = await serve((req, res) => {
  seen.push({ path: req.url!, authorization: req.headers.authorization });
  res.writeHead(200, { 'content-type': 'application/zip' }).end(megabytes);
});
const gateway = await serve((req, res) => {
  seen.push({ path: req.url!, authorization: req.headers.authorization, range: req.headers.range });
  if (req.url === '/zip') {
    // Chunked, with no Content-Length, as deployed gateways stream a ZIP.
    res.writeHead(200, { 'content-type': 'application/zip', 'x-request-id': 'gw-1' });
    for (let at = 0; at < megabytes.length; at += 100_000) res.write(megabytes.subarray(at, at + 100_000));
    return void res.end();
  }
  if (req.url === '/here') return void res.writeHead(302, { location: '/zip' }).end();
  if (req.url === '/elsewhere') return void res.writeHead(307, { location: `${other}/zip` }).end();
  if (req.url === '/half') {
    res.writeHead(200, { 'content-type': 'application/zip' });
    res.write(megabytes.subarray(0, 1000));
    // Then silence with the connection held open (the stall), or broken off (the cut).
    return void setTimeout(() => res.destroy(), 100);
  }
  if (req.url === '/silent') {
    res.writeHead(200, { 'content-type': 'application/zip' });
    return void res.write(megabytes.subarray(0, 1000));
  }
  res
    .writeHead(404, { 'content-type': 'application/json', 'x-request-id': `gw-${KEY}` })
    .end(JSON.stringify({ error: { code: 'not_found', message: `no batch for key ${KEY}` } }));
});

describe.each(['node', 'socket'] as const)('an answer read as it streams, over %s', (over) => {
  beforeAll(() => void (transport = over));
  it('arrives whole, chunked with no length, with the headers fetch would give', async () => {
    const ex = await gatewayFetch(request(gateway, '/zip', { headers: { range: 'bytes=0-' } }));
    expect(ex.response.status).toBe(200);
    expect(ex.response.headers.get('content-type')).toBe('application/zip');
    expect(ex.requestId).toBe('gw-1');
    const parts: Buffer[] = [];
    for await (const chunk of ex.chunks()) parts.push(Buffer.from(chunk));
    expect(Buffer.concat(parts).equals(megabytes)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ path: '/zip', authorization: `Bearer ${KEY}`, range: 'bytes=0-' });
  });

  it('follows a redirect, and sends the key on only to the same origin', async () => {
    const same = await readAll(request(gateway, '/here'));
    expect('bytes' in same && same.bytes.equals(megabytes)).toBe(true);
    expect(seen.at(-1)).toEqual({ path: '/zip', authorization: `Bearer ${KEY}`, range: undefined });
    const away = await readAll(request(gateway, '/elsewhere'));
    expect('bytes' in away && away.bytes.equals(megabytes)).toBe(true);
    expect(seen.at(-1)).toEqual({ path: '/zip', authorization: undefined });
  });

  it('says the answer broke off where the gateway cuts it, and stalled where it goes silent', async () => {
    const cut = await readAll(request(gateway, '/half'));
    expect('error' in cut && cut.error.code).toBe('NETWORK_ERROR');
    expect('error' in cut && cut.error.message).toMatch(/broke off before its end/);
    const stalled = await readAll(request(gateway, '/silent', { stallMs: 300 }));
    expect('error' in stalled && stalled.error.code).toBe('NETWORK_TIMEOUT');
    expect('error' in stalled && stalled.error.message).toMatch(/stopped sending/);
  });

  it('ends as cancelled when the download is cancelled part-way', async () => {
    const cancel = new AbortController();
    const ex = await gatewayFetch(request(gateway, '/silent', { signal: cancel.signal }));
    const reading = (async () => {
      for await (const chunk of ex.chunks()) if (chunk.length) cancel.abort();
    })();
    const error = await reading.then(
      () => undefined,
      (err: unknown) => ex.broke(err),
    );
    expect(error?.code).toBe('STUDIO_CANCELLED');
  });

  it('reads an error answer as text with the key taken out', async () => {
    const ex = await gatewayFetch(request(gateway, '/nothing'));
    expect(ex.response.status).toBe(404);
    const error = await readError(ex);
    expect(error.message).toContain('no batch for key');
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(ex.requestId).not.toContain(KEY);
  });

  it('says in words that nothing answers where nothing listens', async () => {
    const closed = await serve(() => undefined);
    await new Promise((r) => servers.pop()!.close(r));
    const err = await gatewayFetch(request(closed, '/zip')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StudioError);
    expect((err as StudioError).message).toBe(
      `Could not reach ${new URL(closed).host}: the connection was refused.`,
    );
  });
});
