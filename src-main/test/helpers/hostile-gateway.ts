import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A gateway that answers whatever the test tells it to, byte for byte: a damaged body, a status
 * without the API's envelope, a connection dropped before or inside the answer. It shares no code
 * with the studio or the sandbox, so what the studio reads is exactly what a broken deployment sends.
 */
export interface HostileAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** `headers`: the socket closes before any answer; `body`: after half of the body, its length promised. */
  drop?: 'headers' | 'body';
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface HostileGateway {
  url: string;
  /** Every request since the last `answer`, in order. */
  seen: SeenRequest[];
  /** What every request is answered with until the next call. */
  answer(next: (req: SeenRequest, n: number) => HostileAnswer): void;
  close(): Promise<void>;
}

export async function startHostileGateway(): Promise<HostileGateway> {
  let answerFor: (req: SeenRequest, n: number) => HostileAnswer = () => ({
    status: 500,
    headers: {},
    body: Buffer.alloc(0),
  });
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    // The request is read to its end first, so a drop is the answer's, never a half-sent request's.
    req.resume();
    req.on('end', () => {
      const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
      seen.push(request);
      const answer = answerFor(request, seen.length);
      if (answer.drop === 'headers') {
        req.socket.destroy();
        return;
      }
      const headers = { ...answer.headers, 'content-length': String(answer.body.length) };
      res.writeHead(answer.status, headers);
      if (answer.drop === 'body') {
        res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)), () => req.socket.destroy());
        return;
      }
      res.end(answer.body);
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    answer(next) {
      seen.length = 0;
      answerFor = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A 1x1 PNG: the smallest answer that is really an image. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Every place in a JSON value that a damage can hit, as a path of keys and indexes. */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => pathsOf(v, [...at, i]))];
  if (value && typeof value === 'object')
    return [...here, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...at, k]))];
  return here;
}

/**
 * What a broken gateway puts where a value belongs: wrong types, null, numbers no money amount can
 * be, strings that only look like numbers, a status no version of the API has, the key itself.
 */
function replacements(key: string): unknown[] {
  return [
    null,
    0,
    -1,
    -0.35,
    1e308,
    -1e308,
    2 ** 53 + 1,
    'NaN',
    'Infinity',
    '-Infinity',
    '1e999',
    '',
    '12abc',
    true,
    [],
    {},
    [1, 'two', null],
    { nested: { deeper: [{}] } },
    'exploded',
    'x'.repeat(5000),
    `see ${key} for details`,
    Buffer.from(key).toString('base64'),
  ];
}

/** Changes one to three places of a valid answer, or removes them. */
export function damageShape(valid: unknown, random: () => number, key: string): unknown {
  const copy = structuredClone(valid);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  let root: unknown = copy;
  const times = 1 + Math.floor(random() * 3);
  for (let i = 0; i < times; i++) {
    const path = pick(pathsOf(root));
    const replacement = random() < 0.25 ? undefined : pick(replacements(key));
    if (path.length === 0) {
      root = replacement === undefined ? null : random() < 0.3 ? [structuredClone(root)] : replacement;
      continue;
    }
    let parent: any = root;
    for (const step of path.slice(0, -1)) parent = parent[step];
    const last = path.at(-1)!;
    if (replacement === undefined && !Array.isArray(parent)) delete parent[last];
    else if (replacement === undefined) parent.splice(last as number, 1);
    else parent[last] = random() < 0.15 ? [parent[last]] : replacement;
  }
  return root;
}

/** Pages proxies and load balancers send in place of the API's answer. */
export const PROXY_PAGES = [
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
  '<!DOCTYPE html><html><body><h1>Service Unavailable</h1><p>The server is temporarily unable to service your request.</p></body></html>',
  'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
  '<html><body>Rate limited. Slow down.</body></html>',
];
