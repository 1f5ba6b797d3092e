import type { Exchange } from '../exchange';
import { BatchError } from './batch-error';

/** Downloads in flight per key, shared by ZIPs and item previews, as deployed gateways count them. */
export class DownloadSlots {
  private inFlight = new Map<string, number>();

  constructor(private limit: () => number) {}

  async run(key: string, ex: Exchange, body: () => Promise<void>): Promise<void> {
    const busy = this.inFlight.get(key) ?? 0;
    if (busy >= this.limit()) {
      throw new BatchError(
        429,
        'BATCH_IMAGE_DOWNLOAD_LIMITED',
        `too many simultaneous downloads for this key (limit ${this.limit()}); retry later`,
      );
    }
    this.inFlight.set(key, busy + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = (this.inFlight.get(key) ?? 1) - 1;
      if (n <= 0) this.inFlight.delete(key);
      else this.inFlight.set(key, n);
    };
    // The slot is held until the last byte leaves or the client goes away.
    ex.res.once('close', release);
    try {
      await body();
    } catch (err) {
      release();
      throw err;
    }
  }

  count(key: string): number {
    return this.inFlight.get(key) ?? 0;
  }
}
