import { readFileSync } from 'node:fs';
import { createServer as createRawServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/studio-error';
import { gatewayFetch, type GatewayRequest } from '../services/gateway/gateway-request';
import { HttpBody } from '../services/gateway/http-body';
import { ByteSource, type Borrowed } from '../services/zip/zip-byte-source';

// A batch's ZIP is read straight from its socket (socket-answer.ts), framed by the studio's own
// reading of HTTP/1.1 (http-body.ts). Gateways and the proxies before them frame a body every way
// the protocol allows; each must come out byte for byte, over real sockets, split wherever TCP
// splits it, and a frame that lies must end as a broken answer in words, never a hang or a crash.

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

/** A gateway that answers every connection with `answer`, written as the test says. */
async function rawGateway(answer: (socket: Socket) => void): Promise<string> {
  const server = createRawServer((socket) => {
    socket.setNoDelay(true);
    socket.once('data', () => answer(socket));
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const request = (baseUrl: string, extra: Partial<GatewayRequest> = {}): GatewayRequest => ({
  baseUrl,
  path: '/v1/images/batches/b/download',
  auth: { header: 'authorization', value: 'Bearer sk-socket-test' },
  stallMs: 10_000,
  transport: 'socket',
  ...extra,
});

/** The body as the ZIP's reader takes it (slowly where asked: ms per megabyte), or the error it ends with, in words. */
async function readAll(
  req: GatewayRequest,
  pauseMs = 0,
  read = { bytes: 0 },
): Promise<{ bytes: Buffer } | { error: StudioError }> {
  const ex = await gatewayFetch(req);
  const parts: Buffer[] = [];
  try {
    for await (const chunk of ex.chunks()) {
      parts.push(Buffer.from(chunk));
      read.bytes += chunk.length;
      if (pauseMs) await new Promise((r) => setTimeout(r, (pauseMs * chunk.length) / (1 << 20)));
    }
    return { bytes: Buffer.concat(parts) };
  } catch (err) {
    return { error: ex.broke(err) };
  }
}

const body = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 251));
const head = (fields: string) => `HTTP/1.1 200 OK\r\ncontent-type: application/zip\r\n${fields}\r\n`;

/** `data` sent chunked, the k-th frame `frameSize(k)` long, as the ZIP's reader takes it from the socket. */
async function chunkedSource(data: Buffer, frameSize: (k: number) => number): Promise<ByteSource> {
  const frames: Buffer[] = [];
  for (let at = 0, k = 0; at < data.length; k++) {
    const piece = data.subarray(at, at + frameSize(k));
    frames.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
    at += piece.length;
  }
  frames.push(Buffer.from('0\r\n\r\n'));
  const gateway = await rawGateway((s) => {
    s.write(head('transfer-encoding: chunked\r\n'));
    s.end(Buffer.concat(frames));
  });
  return new ByteSource((await gatewayFetch(request(gateway))).chunks());
}

/** The body in chunks of 777 bytes, with an extension on each and trailers after the last. */
const chunked = Buffer.concat([
  ...Array.from({ length: Math.ceil(body.length / 777) }, (_, i) => {
    const piece = body.subarray(i * 777, (i + 1) * 777);
    return Buffer.concat([
      Buffer.from(`${piece.length.toString(16).toUpperCase()};name=x\r\n`),
      piece,
      Buffer.from('\r\n'),
    ]);
  }),
  Buffer.from('0\r\nx-checksum: 1\r\nx-more: 2\r\n\r\n'),
]);

describe('an answer read straight from its socket', () => {
  it('reads a body by its length, by its chunks, and until the connection closes', async () => {
    const byLength = await rawGateway((s) =>
      s.end(Buffer.concat([Buffer.from(head(`content-length: ${body.length}\r\n`)), body])),
    );
    const byChunks = await rawGateway((s) =>
      s.end(Buffer.concat([Buffer.from(head('transfer-encoding: chunked\r\n')), chunked])),
    );
    const byClose = await rawGateway((s) => s.end(Buffer.concat([Buffer.from(head('')), body])));
    // A 100 Continue first, as some proxies send whatever was asked.
    const afterContinue = await rawGateway((s) =>
      s.end(
        Buffer.concat([
          Buffer.from('HTTP/1.1 100 Continue\r\n\r\n' + head(`content-length: ${body.length}\r\n`)),
          body,
        ]),
      ),
    );
    for (const gateway of [byLength, byChunks, byClose, afterContinue]) {
      const got = await readAll(request(gateway));
      expect('bytes' in got && got.bytes.equals(body)).toBe(true);
    }
  });

  it('reads a chunked body that TCP hands over a few bytes at a time', async () => {
    const answer = Buffer.concat([Buffer.from(head('transfer-encoding: chunked\r\n')), chunked]);
    const gateway = await rawGateway(async (s) => {
      for (let at = 0; at < answer.length; at += 3) {
        s.write(answer.subarray(at, at + 3));
        // Each write its own segment, so the reader meets every frame split somewhere.
        if (at % 300 === 0) await new Promise((r) => setTimeout(r, 1));
      }
      s.end();
    });
    const got = await readAll(request(gateway));
    expect('bytes' in got && got.bytes.equals(body)).toBe(true);
  });

  it('reads 40 MB whole for a reader slower than the network, which holds the gateway back', async () => {
    const big = Buffer.alloc(40 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 255;
    const read = { bytes: 0 };
    let readWhenSent = 0;
    const gateway = await rawGateway((s) => {
      s.write(head(`content-length: ${big.length}\r\n`));
      s.end(big, () => (readWhenSent = read.bytes));
    });
    const got = await readAll(request(gateway), 8, read);
    expect('bytes' in got && got.bytes.equals(big)).toBe(true);
    // The reader paused the socket, so TCP held the gateway back: it could hand its last bytes to
    // the kernel only once the reader was near them (unpaused, the studio would have taken all
    // 40 MB into memory at once, while the reader had read next to nothing).
    expect(readWhenSent).toBeGreaterThan(20 * 1024 * 1024);
  });

  it('reads into memory again once the reader copied it out or gave it back, never under a piece the reader kept', async () => {
    // 64 MB in chunks of 100 to 300 KB, each byte telling its place: a byte read from memory that
    // was read into again too early would not be where it came from.
    const big = Buffer.alloc(64 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4) big.writeUInt32LE(i, i);
    const src = await chunkedSource(big, (k) => 100_000 + ((k * 7919) % 200_000));
    const kept: { view: Buffer; at: number }[] = [];
    const borrowed: { got: Borrowed; at: number }[] = [];
    const memory = new Set<ArrayBufferLike>();
    let wrong = 0;
    /** A borrow given back: whole until then. */
    const giveBackOldest = () => {
      const { got, at } = borrowed.shift()!;
      if (!Buffer.concat(got.views).equals(big.subarray(at, at + got.bytes))) wrong++;
      for (const view of got.views) memory.add(view.buffer);
      got.release();
    };
    for (let at = 0, k = 0; at < big.length; k++) {
      // Copied out, as headers are, or into a lane, as a deflated image's compressed bytes are;
      // borrowed and held while three more are read; a chunk borrowed and given back at once, as
      // an entry gathered to its data descriptor is; and, four times, a view kept to the end, as
      // a stored image's bytes are while they are written.
      const n = Math.min(big.length - at, 1000 + ((k * 104_729) % (1 << 20)));
      if (k % 10 === 2) {
        // Copied into a lane's buffer, as a deflated image's compressed bytes are.
        const lane = Buffer.alloc(n + 10);
        const got = await src.readInto(n, lane);
        if (got.buffer !== lane.buffer || !got.equals(big.subarray(at, at + n))) wrong++;
        at += n;
      } else if (k % 5 === 2) {
        borrowed.push({ got: await src.borrow(n), at });
        if (borrowed.length > 3) giveBackOldest();
        at += n;
      } else if (k % 50 === 1 && kept.length < 4) {
        const view = await src.chunk(n);
        kept.push({ view, at });
        at += view.length;
      } else if (k % 3 === 0) {
        const got = await src.read(n);
        if (!got.equals(big.subarray(at, at + n))) wrong++;
        at += n;
      } else {
        const lent = await src.borrowChunk(n);
        const [view] = lent.views;
        memory.add(view!.buffer);
        if (!Buffer.from(view!).equals(big.subarray(at, at + view!.length))) wrong++;
        lent.release();
        at += view!.length;
      }
    }
    while (borrowed.length) giveBackOldest();
    expect(await src.atEnd()).toBe(true);
    expect(wrong).toBe(0);
    expect(kept).toHaveLength(4);
    for (const { view, at } of kept) expect(view.equals(big.subarray(at, at + view.length))).toBe(true);
    // 64 MB came through a few slabs of 4 MB, read into again and again: 16 without reuse.
    expect(memory.size).toBeLessThanOrEqual(10);
  });

  it('ends as a broken answer, in words, where the framing lies or the body is cut', async () => {
    const cases = [
      // A chunk whose data runs past its size.
      head('transfer-encoding: chunked\r\n') + '5\r\nabcdefgh\r\n0\r\n\r\n',
      // A chunk size that is not hexadecimal.
      head('transfer-encoding: chunked\r\n') + 'zz\r\nabc\r\n',
      // Fewer bytes than the length said, then the connection closes.
      head('content-length: 9000\r\n') + 'only this',
      // Chunks that stop before the last one.
      head('transfer-encoding: chunked\r\n') + '3\r\nabc\r\n',
    ];
    for (const answer of cases) {
      const gateway = await rawGateway((s) => s.end(answer));
      const got = await readAll(request(gateway));
      expect('error' in got && got.error.code).toBe('NETWORK_ERROR');
      expect('error' in got && got.error.message).toMatch(/broke off before its end/);
    }
    // Two lengths that disagree, or not an HTTP answer at all: no answer to read.
    for (const answer of [
      head('content-length: 4\r\ncontent-length: 5\r\n') + 'abcd',
      'SSH-2.0-OpenSSH\r\n\r\n',
    ]) {
      const gateway = await rawGateway((s) => s.end(answer));
      const err = await gatewayFetch(request(gateway)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StudioError);
      expect((err as StudioError).code).toBe('NETWORK_ERROR');
    }
  });

  it('refuses a gateway whose certificate is not trusted, in words', async () => {
    const fixtures = join(import.meta.dirname, 'fixtures');
    const server = createTlsServer({
      key: readFileSync(join(fixtures, 'untrusted-gateway.key.pem')),
      cert: readFileSync(join(fixtures, 'untrusted-gateway.cert.pem')),
    });
    server.on('secureConnection', (s) => s.end(head('content-length: 2\r\n') + 'ok'));
    server.on('tlsClientError', () => undefined);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const err = await gatewayFetch(
      request(`https://localhost:${(server.address() as AddressInfo).port}`),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StudioError);
    expect((err as StudioError).code).toBe('NETWORK_ERROR');
    expect((err as StudioError).message).toMatch(/^Could not reach localhost:\d+: /);
    expect((err as StudioError).message).not.toMatch(/\n\s+at /);
  });
});

describe('an HTTP/1.1 body framed in chunks', () => {
  it('comes out the same wherever its bytes are split', () => {
    for (let split = 1; split < chunked.length; split += 37) {
      const framing = new HttpBody({ kind: 'chunked' });
      const out: Buffer[] = [];
      framing.feed(chunked.subarray(0, split), (piece) => out.push(Buffer.from(piece)));
      expect(framing.done).toBe(false);
      framing.feed(chunked.subarray(split), (piece) => out.push(Buffer.from(piece)));
      expect(framing.done).toBe(true);
      expect(Buffer.concat(out).equals(body)).toBe(true);
    }
  });
});
