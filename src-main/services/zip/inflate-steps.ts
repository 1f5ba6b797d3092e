/** Compressed bytes inflated per step on the pool: its output is still in cache when it is checked and written. */
export const STEP = 256 * 1024;

/**
 * Chunks shorter than this are joined (copied) into steps of about STEP. A gateway that sends its
 * ZIP in small chunked frames (32 KB from Go's io.Copy) would otherwise have each frame inflated
 * as a step of its own, each a round trip to the pool: 64 KB steps took 2.05–2.24 s where 256 KB
 * steps took 1.87–1.95 for a 660 MB archive (measured for issue 36). Chunks this long or longer,
 * a Node gateway's 256 KB frames, are inflated where they lie, uncopied.
 */
const JOIN_BELOW = STEP / 2;

/**
 * An entry's compressed bytes, the network chunks they came in, as the steps they are inflated
 * in: a long chunk cut into steps, short ones joined into `room(total)` (asked for only where
 * two or more are joined; each join has its own place in it, so none is overwritten before it is
 * inflated).
 */
export function inflateSteps(parts: readonly Buffer[], room: (n: number) => Buffer): Buffer[] {
  const steps: Buffer[] = [];
  let total = 0;
  for (const part of parts) total += part.length;
  let joined: Buffer | undefined;
  let used = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (pending.length === 1) steps.push(pending[0]!);
    else if (pending.length > 1) {
      joined ??= room(total);
      const from = used;
      for (const part of pending) used += part.copy(joined, used);
      steps.push(joined.subarray(from, used));
    }
    pending = [];
    pendingBytes = 0;
  };
  for (const part of parts) {
    if (part.length === 0) continue;
    if (part.length < JOIN_BELOW) {
      pending.push(part);
      pendingBytes += part.length;
      if (pendingBytes >= STEP) flush();
      continue;
    }
    flush();
    for (let at = 0; at < part.length; at += STEP) steps.push(part.subarray(at, at + STEP));
  }
  flush();
  return steps;
}
