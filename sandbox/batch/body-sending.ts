import type { Exchange } from '../exchange';

/**
 * A download's body (a ZIP, an item's image), written in chunks with backpressure, with the faults
 * a download can meet on its way:
 * - `truncate`: the 200 answer ends at `cutAt` of the bytes, as a gateway whose stream fails does;
 * - `stall`: at `cutAt` it sends nothing for `slowMs`, the connection held open, then goes on;
 * - `slow`: it holds back its last bytes for `slowMs`.
 * The slot of the download is held throughout. Answers whether the whole body left.
 */
export async function sendBody(
  ex: Exchange,
  data: Buffer,
  options: { from?: number; cutAt?: number; slowMs: number },
): Promise<boolean> {
  const from = options.from ?? 0;
  const cut = Math.max(from, Math.floor(data.length * (options.cutAt ?? 1)));
  if (ex.fault === 'truncate') {
    // Ended cleanly where it was cut: only the archive itself shows it is short.
    if (await write(ex, data, from, cut)) await new Promise<void>((resolve) => ex.res.end(resolve));
    return false;
  }
  if (ex.fault === 'stall') {
    if (!(await write(ex, data, from, cut))) return false;
    await heldOpen(ex, options.slowMs);
    if (!(await write(ex, data, cut, data.length))) return false;
  } else if (!(await write(ex, data, from, data.length))) return false;
  if (ex.fault === 'slow') await new Promise((r) => setTimeout(r, options.slowMs));
  if (ex.res.destroyed) return false;
  await new Promise<void>((resolve) => ex.res.end(resolve));
  return true;
}

/** Bytes `from` to `to`, a chunk at a time as the client takes them; false once it has gone. */
async function write(ex: Exchange, data: Buffer, from: number, to: number): Promise<boolean> {
  const chunk = 256 * 1024;
  for (let at = from; at < to; at += chunk) {
    if (ex.res.destroyed) return false;
    const ok = ex.res.write(data.subarray(at, Math.min(to, at + chunk)));
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = () => {
          ex.res.off('drain', done);
          ex.res.off('close', done);
          resolve();
        };
        ex.res.on('drain', done);
        ex.res.on('close', done);
      });
    }
  }
  return !ex.res.destroyed;
}

/** Silence for `ms`, or until the client gives up and goes. */
function heldOpen(ex: Exchange, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      ex.res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    ex.res.on('close', done);
  });
}
