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
  try {
    for (;;) {
      const timer = setTimeout(stalled, stallMs);
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } finally {
        clearTimeout(timer);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // A reader that stops early releases the connection.
    await chunks.return?.();
  }
}
