// The CPU floor of a deflated archive on this machine: zlib alone inflating every entry of it, from
// memory to memory, on both cores at once (two inflates on libuv's pool, as the studio runs them),
// with no network, no CRC, no disk. Nothing that extracts the archive can finish sooner, so where
// this alone takes longer than a target, the target cannot be met here. Run in its own process by
// bench/ingest.bench.ts; prints one JSON line.
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';

const inflateRawAsync = promisify(inflateRaw);
const archive = readFileSync(process.argv[2]!);
// The deflated bench archive has each entry's sizes in its local header (no data descriptors).
const entries: { data: Buffer; size: number }[] = [];
for (let at = 0; archive.readUInt32LE(at) === 0x04034b50;) {
  const method = archive.readUInt16LE(at + 8);
  const compressed = archive.readUInt32LE(at + 18);
  const size = archive.readUInt32LE(at + 22);
  const start = at + 30 + archive.readUInt16LE(at + 26) + archive.readUInt16LE(at + 28);
  if (method === 8 && size > 0) entries.push({ data: archive.subarray(start, start + compressed), size });
  at = start + compressed;
}
const started = performance.now();
let next = 0;
let bytes = 0;
const lane = async () => {
  while (next < entries.length) {
    const { data, size } = entries[next++]!;
    const out = await inflateRawAsync(data, { chunkSize: size + 1 });
    bytes += out.length;
  }
};
await Promise.all([lane(), lane()]);
process.stdout.write(
  JSON.stringify({ seconds: (performance.now() - started) / 1000, entries: entries.length, bytes }) + '\n',
);
