/**
 * An answer's body as it streams, ended by `stalled` when the gateway sends nothing for `stallMs`.
 * Only the wait for the next chunk is timed, not the reader's own pace: a library disk slow to take
 * the bytes is not a stalled gateway.
 */
export async function* stallWatched(
  body: AsyncIterable<Uint8Array>,
  stallMs: number,
  stalled: () => void,
): AsyncGenerator<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  // One timer, re-armed (refresh) at each wait, and ignored if it fires while the reader works: a
  // timer made and cleared for each of a large ZIP's ten thousand chunks cost more. (A cleared
  // timer cannot be re-armed, so it is only cleared at the end.)
  let waiting = false;
  const timer = setTimeout(() => waiting && stalled(), stallMs);
  try {
    for (;;) {
      waiting = true;
      timer.refresh();
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } finally {
        waiting = false;
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    clearTimeout(timer);
    // A reader that stops early releases the connection.
    await chunks.return?.();
  }
}
