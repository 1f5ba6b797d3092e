import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/** What the server does wrong to one file, for one case: an error, a cut-short body, changed bytes. */
export type FeedFault = 'error' | 'truncate' | 'tamper';

export interface FeedRequest {
  file: string;
  range?: string;
  status: number;
  /** Body bytes sent. */
  bytes: number;
}

export interface FeedServer {
  url: string;
  requests: FeedRequest[];
  /** Faults by file name; set and cleared by each test. */
  faults: Map<string, FeedFault>;
  close(): Promise<void>;
}

type Range = [start: number, end: number];

/** `bytes=0-99,200-299` as inclusive pairs; undefined for no header or one this server will not serve. */
function parseRanges(header: string | undefined, size: number): Range[] | undefined {
  const match = header ? /^bytes=(.+)$/.exec(header) : null;
  if (!match) return undefined;
  const ranges: Range[] = [];
  for (const part of match[1]!.split(',')) {
    const [from, to] = part.trim().split('-');
    const start = Number(from);
    const end = to === '' || to === undefined ? size - 1 : Math.min(Number(to), size - 1);
    if (!Number.isInteger(start) || !Number.isInteger(end) || start > end || start >= size) return undefined;
    ranges.push([start, end]);
  }
  return ranges;
}

function answer(res: ServerResponse, status: number, headers: Record<string, string | number>, body: Buffer) {
  res.writeHead(status, { ...headers, 'content-length': body.length });
  res.end(body);
}

/**
 * A static host for update files on 127.0.0.1, as nginx or a bucket would serve them: whole files,
 * single `Range` requests (206) and several ranges at once (multipart/byteranges, which
 * electron-updater's differential download asks for). It records every request, and can fail one
 * file on purpose.
 */
export async function startFeedServer(root: string): Promise<FeedServer> {
  const requests: FeedRequest[] = [];
  const faults = new Map<string, FeedFault>();

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const file = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(1));
    const record = (status: number, bytes: number) =>
      requests.push({ file, range: req.headers.range, status, bytes });
    const fault = faults.get(file);
    if (fault === 'error' || normalize(file).startsWith('..')) {
      record(500, 0);
      return answer(res, 500, { 'content-type': 'text/plain' }, Buffer.from('Internal Server Error'));
    }
    let body: Buffer;
    try {
      body = await readFile(join(root, normalize(file)));
    } catch {
      record(404, 0);
      return answer(res, 404, { 'content-type': 'text/plain' }, Buffer.from('Not Found'));
    }
    if (fault === 'tamper') {
      // A byte changed in every 16 KiB, so any block fetched is wrong; none in the last 16 KiB, where
      // an AppImage keeps its blockmap (the differential download then fails on the sha512 too).
      body = Buffer.from(body);
      for (let i = 100; i < body.length - 16 * 1024; i += 16 * 1024) body[i] = body[i]! ^ 0xff;
    }
    if (fault === 'truncate') {
      // The length of the whole file is promised, half of it sent, then the connection drops.
      const half = body.subarray(0, body.length >> 1);
      record(200, half.length);
      res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
      res.write(half, () => res.destroy());
      return;
    }
    const ranges = parseRanges(req.headers.range, body.length);
    const type = file.endsWith('.yml') ? 'text/yaml' : 'application/octet-stream';
    if (!ranges) {
      record(200, body.length);
      return answer(res, 200, { 'content-type': type, 'accept-ranges': 'bytes' }, body);
    }
    if (ranges.length === 1) {
      const [start, end] = ranges[0]!;
      record(206, end - start + 1);
      return answer(
        res,
        206,
        { 'content-type': type, 'content-range': `bytes ${start}-${end}/${body.length}` },
        body.subarray(start, end + 1),
      );
    }
    const boundary = 'feed-boundary-7d3a';
    const parts: Buffer[] = [];
    for (const [start, end] of ranges) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\ncontent-type: ${type}\r\ncontent-range: bytes ${start}-${end}/${body.length}\r\n\r\n`,
        ),
        body.subarray(start, end + 1),
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    const multipart = Buffer.concat(parts);
    record(
      206,
      ranges.reduce((n, [start, end]) => n + end - start + 1, 0),
    );
    return answer(res, 206, { 'content-type': `multipart/byteranges; boundary=${boundary}` }, multipart);
  }

  const server = createServer((req, res) => {
    serve(req, res).catch((err: unknown) => {
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
