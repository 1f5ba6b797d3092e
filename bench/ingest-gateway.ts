// The ingest bench's gateway stand-in, in a process of its own as a deployed gateway is (serving in
// the bench's own process would put its sends on the CPU the reference tools and the studio are
// timed against, and skew them differently). It streams each archive WITHOUT a Content-Length
// (chunked), as deployed gateways do when they write the ZIP as they make it; Range is honoured.
// Archives by kind at `/<kind>` for curl and at the batch API's download path for the studio's own
// client; a batch id `stored~cut0.3` ends its first answer at 30 % of its bytes, as a broken
// connection does. Started by bench/ingest.bench.ts with `kind=file` arguments; prints its port as
// one JSON line once it listens, and serves until its parent ends it.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';

const files = new Map(
  process.argv.slice(2).map((arg) => {
    const at = arg.indexOf('=');
    return [arg.slice(0, at), arg.slice(at + 1)] as const;
  }),
);
const cutOnce = new Set<string>();
const server = createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  const [, id = '', share] =
    /^\/(?:v1\/images\/batches\/)?([^/~]+(?:~cut([\d.]+))?)(?:\/download)?$/.exec(url.pathname) ?? [];
  const file = files.get(id.replace(/~.*/, ''));
  if (!file) return void res.writeHead(404).end();
  const size = statSync(file).size;
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const from = range ? Number(range[1]) : 0;
  const cut = Number(share);
  let end = size;
  if (cut && !range && !cutOnce.has(id)) {
    cutOnce.add(id);
    end = Math.floor(size * cut);
  }
  // No content-length: node's HTTP/1.1 server then sends the body chunked.
  res.writeHead(range ? 206 : 200, {
    'content-type': 'application/zip',
    ...(range ? { 'content-range': `bytes ${from}-${size - 1}/${size}` } : {}),
  });
  const stream = createReadStream(file, { start: from, end: end - 1, highWaterMark: 256 * 1024 });
  // A cut is a connection that breaks, as a gateway's does: no clean end.
  stream.pipe(res, { end: end === size });
  if (end < size) stream.on('end', () => res.destroy());
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
// The bench ends it; a bench that dies without doing so closes this pipe, and this goes too.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
