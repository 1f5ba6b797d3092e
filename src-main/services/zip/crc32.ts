import { createRequire } from 'node:module';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { logCaught } from '../log/studio-log';

type Crc32 = (data: Uint8Array, running?: number) => number;

/**
 * The CRC-32 every byte of a batch ZIP is checked against, running over its pieces: `running` is
 * the value of the bytes before `data`, and the answer is unsigned.
 *
 * @node-rs/crc32 (napi-rs; Rust's crc32fast, prebuilt for every platform the studio ships on)
 * uses the CPU's carry-less multiply: 12.7 GB/s here against zlib.crc32's 4.7. Node's zlib has no
 * such path where it is built against a system zlib (Debian's Node: the gzip check of every
 * deflated image was 0.17 of a 665 MB archive's 3.7 CPU-seconds, on the cores that inflate).
 * Loaded at the first check, not at start; where its binary cannot load (a platform without a
 * prebuild), zlib's CRC-32 does the same check, slower.
 */
export const crc32: Crc32 = (data, running = 0) => (checker ??= load())(data, running);

let checker: Crc32 | undefined;

function load(): Crc32 {
  try {
    const fast = (createRequire(import.meta.url)('@node-rs/crc32') as { crc32: Crc32 }).crc32;
    // Checked once on a known value, so a broken binary cannot pass or refuse every image.
    if (fast(Buffer.from('123456789')) >>> 0 === 0xcbf43926) return (d, r = 0) => fast(d, r) >>> 0;
    logCaught('crc32', new Error('@node-rs/crc32 answered a wrong check value'));
  } catch (err) {
    logCaught('crc32', err);
  }
  return (d, r = 0) => zlibCrc32(d, r);
}
