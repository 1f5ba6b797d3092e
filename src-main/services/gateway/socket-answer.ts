import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { HttpBody } from './http-body';
import { ReadSlabs } from './read-slabs';
import { WaitingChunks } from './waiting-chunks';

/** What a transport hands streamed-answer.ts: the status line, the headers, the body's chunks. */
export interface RawAnswer {
  status: number;
  statusMessage: string;
  /** Header names in lower case, each with its values in the order they came. */
  headers: Map<string, string[]>;
  /** The body's chunks, each handed on once; the iterator's return() releases the connection. */
  chunks(): AsyncIterator<Buffer>;
  /** Nobody will read the body (a redirect, a 204): the connection is let go. */
  discard(): void;
}

/** The status line and headers together, at most (node:http's own limit is 16 KB). */
const HEAD_MAX = 64 * 1024;

/**
 * One HTTP/1.1 exchange read straight from its socket, for answers of hundreds of megabytes (a
 * batch's ZIP). node:http copies every byte of a body out of the socket's buffer into one of its
 * own (its parser's on_body, Buffer::Copy), each read allocating twice, and hands each piece
 * through a Readable: for a 665 MB archive about a CPU-second of the main thread and a garbage
 * collection every few hundred milliseconds. Here the kernel reads into large slabs, one after the
 * other, and the body's pieces are views of them: no copy, no allocation per read. A slab is read
 * into again only once its reader gave every piece of it back (read-slabs.ts): a piece not given
 * back stays good for as long as anyone holds it.
 *
 * One request per connection (`Connection: close`), no proxy (as node:http and fetch here), TLS
 * verified as node's https verifies it. Redirects are streamed-answer.ts's.
 */
export function socketAnswer(
  target: URL,
  init: { method: string; headers: Record<string, string>; body?: string },
  signal: AbortSignal,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const tls = target.protocol === 'https:';
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(target.port) || (tls ? 443 : 80);
    const slabs = new ReadSlabs();
    const onread = {
      buffer: () => slabs.room(),
      callback: (n: number, into: Buffer) => {
        // The read's bytes are the slab's from here on; the next read starts after them.
        slabs.filled(into, n);
        return got(into.subarray(0, n));
      },
    };
    const socket: Socket = tls
      ? // tls.connect takes onread as net does (Node 15.1, nodejs/node#35753); its types do not say so.
        tlsConnect({
          host,
          port,
          servername: isIp(host) ? undefined : host,
          ALPNProtocols: ['http/1.1'],
          onread,
        } as ConnectionOptions)
      : netConnect({ host, port, onread });
    socket.setNoDelay(true);

    let head: Buffer | undefined = Buffer.alloc(0);
    let body: HttpBody | undefined;
    // Paused by name (pause(), not a callback answering false): net.Socket's resume() only
    // restarts a read that its own pause() stopped.
    const chunks = new WaitingChunks(socket);
    const fail = (err: unknown) => {
      chunks.fail(err);
      socket.destroy();
    };

    /** One read's bytes: the head until it is whole, then the body's pieces. False stops reading. */
    function got(bytes: Buffer): boolean {
      if (head !== undefined) {
        head = Buffer.concat([head, bytes]);
        const answer = readHead();
        if (answer === undefined) return true;
        if (answer instanceof Error) {
          fail(answer);
          reject(answer);
          return false;
        }
        bytes = answer;
      }
      if (!body || chunks.ended) return true;
      try {
        body.feed(bytes, (piece) => {
          slabs.issue(piece);
          chunks.push(piece);
        });
      } catch (err) {
        fail(err);
        return false;
      }
      if (body.done) {
        chunks.end();
        socket.destroy();
      }
      return true;
    }

    /** The head parsed once whole: the bytes after it, an error, or undefined while it is coming. */
    function readHead(): Buffer | Error | undefined {
      const at = head!.indexOf('\r\n\r\n');
      if (at < 0)
        return head!.length > HEAD_MAX ? new Error('the answer’s headers are too large') : undefined;
      const lines = head!.toString('latin1', 0, at).split('\r\n');
      const rest = head!.subarray(at + 4);
      const status = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(lines[0]!);
      if (!status) return new Error('not an HTTP/1.1 answer');
      const code = Number(status[1]);
      // An interim answer (100 Continue, 103 Early Hints): the real one follows.
      if (code >= 100 && code < 200) {
        head = rest;
        return rest.length ? readHead() : undefined;
      }
      const headers = new Map<string, string[]>();
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon <= 0) return new Error('a malformed header in the answer');
        const name = line.slice(0, colon).trim().toLowerCase();
        headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
      }
      head = undefined;
      const framing = HttpBody.framing(init.method, code, headers);
      if (framing instanceof Error) return framing;
      body = new HttpBody(framing);
      if (body.done) chunks.end();
      resolve({
        status: code,
        statusMessage: status[2] ?? '',
        headers,
        chunks: () => chunks,
        discard: () => socket.destroy(),
      });
      return rest;
    }

    const abort = () => {
      const reason = signal.reason as unknown;
      if (head !== undefined) reject(reason);
      fail(reason);
    };
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    socket.on('error', (err) => {
      if (head !== undefined) reject(err);
      fail(err);
    });
    socket.on('close', () => {
      signal.removeEventListener('abort', abort);
      if (head !== undefined) reject(new Error('the connection closed before an answer'));
      // A body read until the connection closes ends here; any other is cut.
      else if (!chunks.ended && body?.untilClose) chunks.end();
      else if (!chunks.ended) chunks.fail(new Error('the answer ended before its end'));
    });

    const path = `${target.pathname || '/'}${target.search}`;
    const lines = [`${init.method} ${path} HTTP/1.1`, `host: ${target.host}`];
    for (const [name, value] of Object.entries(init.headers)) {
      if (/[\r\n]/.test(name + value)) {
        const refused = new Error('a header with a line break');
        reject(refused);
        return fail(refused);
      }
      if (!/^(host|connection|content-length|transfer-encoding)$/i.test(name))
        lines.push(`${name}: ${value}`);
    }
    const payload = init.body === undefined ? undefined : Buffer.from(init.body);
    if (payload) lines.push(`content-length: ${payload.length}`);
    lines.push('connection: close', '', '');
    socket.write(lines.join('\r\n'));
    if (payload) socket.write(payload);
  });
}

const isIp = (host: string) => /^[\d.]+$/.test(host) || host.includes(':');
