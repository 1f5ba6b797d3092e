/** Bytes waiting for the reader before the connection is paused (TCP then holds the gateway back). */
const WAITING_MAX = 4 * 1024 * 1024;

/** What the waiting chunks hold back or let go: a socket, or node:http's answer. */
interface Connection {
  pause(): void;
  resume(): void;
  isPaused(): boolean;
  destroy(): void;
}

/**
 * A body's chunks between the connection that hands them over and the reader that takes them one at
 * a time, each as it came (no joining into new buffers). Past 4 MB waiting the connection is paused,
 * and resumed once the reader is halfway through them. Chunks that arrived before a break are
 * handed on first: they are good bytes, and a resume starts after them.
 */
export class WaitingChunks implements AsyncIterator<Buffer> {
  private queue: Buffer[] = [];
  private queued = 0;
  private done = false;
  private failure: unknown;
  private wake: (() => void) | undefined;

  constructor(private readonly connection: Connection) {}

  push(chunk: Buffer): void {
    this.queue.push(chunk);
    this.queued += chunk.length;
    if (this.queued >= WAITING_MAX) this.connection.pause();
    this.poke();
  }

  /** The body came whole. */
  end(): void {
    this.done = true;
    this.poke();
  }

  /** The body broke: the reader gets `err` once the chunks before it are taken. */
  fail(err: unknown): void {
    this.failure ??= err;
    this.poke();
  }

  get ended(): boolean {
    return this.done;
  }

  async next(): Promise<IteratorResult<Buffer>> {
    while (!this.queue.length) {
      if (this.failure !== undefined) throw this.failure;
      if (this.done) return { done: true, value: undefined };
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const value = this.queue.shift()!;
    this.queued -= value.length;
    if (this.queued < WAITING_MAX / 2 && this.connection.isPaused()) this.connection.resume();
    return { done: false, value };
  }

  /** A reader that stops early releases the connection. */
  async return(): Promise<IteratorResult<Buffer>> {
    this.connection.destroy();
    return { done: true, value: undefined };
  }

  private poke(): void {
    const woken = this.wake;
    this.wake = undefined;
    woken?.();
  }
}
