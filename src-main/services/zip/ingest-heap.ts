// What V8's heap is told while a batch ZIP streams in, where hundreds of megabytes pass through
// buffers that live for milliseconds: when to free them, and when to collect. Both are V8 flags,
// set while the process runs, each measured on a 660 MB archive for issue 36.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

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

/**
 * How far the heap may grow past what a full collection left, while a ZIP streams in. The
 * archive's 4 MB slabs count toward V8's limit until a collection frees them, and V8 sets that
 * limit at 1.1 to 4 times the live heap, by the share of time its collections took. With the
 * 12 MB heap of a process that does little else, that was a full collection every 130 ms or so:
 * 17 to 33 for a 660 MB deflated archive, each pausing the main thread that feeds the inflate
 * lanes, and marking on the cores that inflate.
 *
 * Room for HEADROOM of slabs, at most 3.5 times the heap: 4 to 9 collections, and 0.3–0.5 CPU-s
 * less (1.86–1.94 s against 2.15–2.4 for the whole ingest, measured for issue 36). At 4 times,
 * peak memory came to 198 MB of the bench's 200; at 3.5, to 194. A heap so large that the room is
 * less than doubling it already has that room, and keeps V8's own choice: the factor replaces
 * V8's, it does not add to it. It is read at each collection, so setting it while the process runs
 * takes effect at the next one; V8's own choice comes back when the last ingest ends.
 */
const HEADROOM = 48 * 1024 * 1024;
const MAX_PERCENT = 250;
let ingesting = 0;
let raised = false;

/** Runs `ingest` with room for its slabs (above), however many ingests run at once. */
export async function withRoomForSlabs<T>(ingest: () => Promise<T>): Promise<T> {
  if (ingesting++ === 0) {
    // V8's factor is 1 + percent / 100 of what the last collection left.
    const percent = Math.min(MAX_PERCENT, Math.floor((HEADROOM / getHeapStatistics().used_heap_size) * 100));
    raised = percent >= 100;
    if (raised) setFlagsFromString(`--heap-growing-percent=${percent}`);
  }
  try {
    return await ingest();
  } finally {
    if (--ingesting === 0 && raised) setFlagsFromString('--heap-growing-percent=0');
  }
}
