import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { around, doubledMs, drawWait } from '../../src-shared/backoff';

/** What the stream remembers across reconnects, as the EventSource standard has it. */
export interface EventStreamState {
  /** The last `id:` the server sent; sent back as Last-Event-ID on reconnecting. */
  lastEventId?: string;
  /** The server's `retry:` (ms): the wait before reconnecting, in place of the studio's own. */
  retryMs?: number;
}

/**
 * Reads one response body of server-sent events until it ends. eventsource-parser does the parsing
 * (multi-line `data`, `id`, `retry`, comments, events split across chunks), so this only hands on what
 * it parsed.
 */
export async function readEventStream(
  body: NonNullable<Response['body']>,
  onEvent: (message: EventSourceMessage) => void,
  state: EventStreamState,
): Promise<void> {
  const parser = createParser({
    onEvent: (message) => {
      if (message.id !== undefined) state.lastEventId = message.id;
      onEvent(message);
    },
    onRetry: (ms) => (state.retryMs = ms),
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}

/** The first wait before reconnecting, and the longest; doubled from one to the other while it fails. */
const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 5_000;

/**
 * The wait before reconnect `failures` (1 for the first): the server's `retry` if it sent one, else
 * the studio's, doubled each failure up to a ceiling; then give or take a fifth (jitter), as the main
 * process's retry policies do, so windows that lost the studio together do not all return at once.
 */
export function reconnectWaitMs(failures: number, serverRetryMs?: number, random = Math.random): number {
  const base = serverRetryMs ?? doubledMs(FIRST_WAIT_MS, LONGEST_WAIT_MS, failures - 1);
  return Math.round(drawWait(around(base), random));
}

export interface FollowOptions {
  url: string;
  headers: Record<string, string>;
  /** Told each time the stream is (re)connected, so the window can refetch what it missed. */
  onOpen: () => void;
  onEvent: (message: EventSourceMessage) => void;
  /** Ends the stream for good. */
  signal?: AbortSignal;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Follows a server-sent event stream over fetch (it carries the token header EventSource cannot), reconnecting for as long as it lives. */
export async function followEventStream(options: FollowOptions): Promise<void> {
  const state: EventStreamState = {};
  let failures = 0;
  while (!options.signal?.aborted) {
    try {
      const res = await fetch(options.url, {
        headers: {
          ...options.headers,
          ...(state.lastEventId !== undefined ? { 'last-event-id': state.lastEventId } : {}),
        },
        signal: options.signal,
      });
      if (!res.ok || !res.body) throw new Error(`events answered ${res.status}`);
      failures = 0;
      options.onOpen();
      await readEventStream(res.body, options.onEvent, state);
    } catch {
      // The studio restarted or the network blinked: reconnect after a wait.
    }
    if (options.signal?.aborted) return;
    failures++;
    await (options.sleep ?? realSleep)(reconnectWaitMs(failures, state.retryMs));
  }
}
