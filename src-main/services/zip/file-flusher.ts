import type { FileHandle } from 'node:fs/promises';
import { logCaught } from '../log/studio-log';
import { fsyncHandle } from '../storage/atomic-file';

/** Files fsynced at once, and written files that may wait for theirs before writers wait too. */
const FLUSHES = 2;
const FLUSH_BACKLOG = 16;

/**
 * Flushes written files behind the writers, a few at a time: the disk writes entry N while entry
 * N+1 is read and checked, where flushing after the extraction would leave the disk idle until
 * then and the CPU idle after. A writer waits only when the backlog is full, so dirty pages never
 * run far ahead of the disk.
 */
export class Flusher {
  private waiting: FileHandle[] = [];
  private running = 0;
  private room: (() => void)[] = [];
  private idle: (() => void)[] = [];
  private failure: unknown;

  /** Takes a verified, fully written file; it is closed once flushed. */
  async add(handle: FileHandle): Promise<void> {
    this.waiting.push(handle);
    this.pump();
    while (this.waiting.length + this.running > FLUSH_BACKLOG)
      await new Promise<void>((r) => this.room.push(r));
  }

  private pump(): void {
    while (this.running < FLUSHES && this.waiting.length > 0) {
      const handle = this.waiting.shift()!;
      this.running++;
      void fsyncHandle(handle.fd)
        .catch((err: unknown) => {
          this.failure ??= err;
        })
        .finally(() => handle.close())
        .catch((err: unknown) => logCaught('flushed image close', err))
        .finally(() => {
          this.running--;
          this.room.splice(0).forEach((r) => r());
          this.pump();
          if (this.running === 0 && this.waiting.length === 0) this.idle.splice(0).forEach((r) => r());
        });
    }
  }

  /** Resolves once every file taken is flushed and closed; rejects if any fsync failed. */
  async drain(): Promise<void> {
    if (this.running > 0 || this.waiting.length > 0) await new Promise<void>((r) => this.idle.push(r));
    if (this.failure !== undefined) throw this.failure;
  }
}
