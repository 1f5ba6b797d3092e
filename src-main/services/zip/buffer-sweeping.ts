import { setFlagsFromString } from 'node:v8';

let set = false;

/**
 * Has V8 free a dead ArrayBuffer's memory in the collection that finds it dead, rather than later
 * on a background thread. A batch ZIP arrives as about 13,000 network buffers (300 MB/s here), and
 * each one counts toward the old generation's limit until it is swept. With the cores busy
 * inflating, the background sweep lags, the count crosses the small limit of a small heap, and V8
 * starts a full collection every 100 ms or so: 33 to 40 for one 660 MB archive, about 1.5 CPU-s on
 * its threads, where 2 would do (measured for issue 36). Freed at once, each buffer costs the main
 * thread one free(). The flag is read at every sweep, so setting it while the process runs is safe;
 * a V8 without it only prints that it does not know it.
 */
export function sweepBuffersAtOnce(): void {
  if (set) return;
  set = true;
  setFlagsFromString('--no-concurrent-array-buffer-sweeping');
}
