// The CPU floor of a deflated archive on this machine: zlib alone inflating every entry of it, from
// memory to memory, on every thread of libuv's pool at once (four), with no network, no CRC, no disk.
// Nothing that extracts the archive can finish sooner, so where this alone takes longer than a
// target, the target cannot be met here. Not one inflate per core: with one on each of the two
// cores here, each core waited while the main thread took an entry's output and handed on the
// next, and the floor was 1.18–1.21 s where three or four inflates at once take 0.91–0.94 (measured
// for issue 36). Run in its own process by bench/ingest.bench.ts; prints one JSON line.
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';

const inflateRawAsync = promisify(inflateRaw);
const archive = readFileSync(process.argv[2]!);
// Each entry's place and sizes from the central directory (a local header with a data descriptor
// has none).
const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
const entries: { data: Buffer; size: number }[] = [];
for (let at = archive.readUInt32LE(end + 16), n = archive.readUInt16LE(end + 10); n > 0; n--) {
  const method = archive.readUInt16LE(at + 10);
  const compressed = archive.readUInt32LE(at + 20);
  const size = archive.readUInt32LE(at + 24);
  const local = archive.readUInt32LE(at + 42);
  const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
  if (method === 8 && size > 0) entries.push({ data: archive.subarray(start, start + compressed), size });
  at += 46 + archive.readUInt16LE(at + 28) + archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
}
const started = performance.now();
const startCpu = process.cpuUsage();
let next = 0;
let bytes = 0;
const lane = async () => {
  while (next < entries.length) {
    const { data, size } = entries[next++]!;
    const out = await inflateRawAsync(data, { chunkSize: size + 1 });
    bytes += out.length;
  }
};
const lanes = Number(process.env.UV_THREADPOOL_SIZE) || 4;
await Promise.all(Array.from({ length: lanes }, lane));
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(startCpu);
process.stdout.write(
  JSON.stringify({ seconds, cpu_s: (cpu.user + cpu.system) / 1e6, lanes, entries: entries.length, bytes }) +
    '\n',
);
