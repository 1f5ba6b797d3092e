import { setFlagsFromString } from 'node:v8';

let set = false;

/**
 * Has V8 free a dead ArrayBuffer's memory in the collection that finds it dead, rather than later
 * on a background thread. Read through node:http, a batch ZIP arrived as about 13,000 network
 * buffers (300 MB/s here), each counting toward the old generation's limit until it is swept. With
 * the cores busy inflating, the background sweep lagged, the count crossed the small limit of a
 * small heap, and V8 started a full collection every 100 ms or so: 33 to 40 for one 660 MB archive,
 * about 1.5 CPU-s on its threads, where 2 would do (measured for issue 36). The ZIP now comes in
 * 4 MB slabs (socket-answer.ts), with 13 to 22 full collections; item images still come through
 * node:http. Not measured again without the flag. Freed at once, each buffer costs the main
 * thread one free(). The flag is read at every sweep, so setting it while the process runs is safe;
 * a V8 without it only prints that it does not know it.
 */
export function sweepBuffersAtOnce(): void {
  if (set) return;
  set = true;
  setFlagsFromString('--no-concurrent-array-buffer-sweeping');
}
