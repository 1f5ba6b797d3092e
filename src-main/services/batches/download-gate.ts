import PQueue from 'p-queue';
import { retryPolicies, withRetry } from '../gateway/retry-policy';

/**
 * One download or preview request in flight per gateway account, as deployed gateways enforce;
 * the rest wait their turn. A 429 BATCH_IMAGE_DOWNLOAD_LIMITED (another client of the same account
 * is downloading) waits and tries again without giving up the turn.
 */
export class DownloadGate {
  private queues = new Map<string, PQueue>();

  constructor(private sleep?: (ms: number) => Promise<void>) {}

  /** `speed` divides the waits, for a gateway that runs faster than real time (the sandbox). */
  run<T>(
    account: string,
    task: () => Promise<T>,
    options: { priority?: number; speed?: number } = {},
  ): Promise<T> {
    let queue = this.queues.get(account);
    if (!queue) this.queues.set(account, (queue = new PQueue({ concurrency: 1 })));
    const speed = Math.max(1, options.speed ?? 1);
    return queue.add(() => this.withLimitRetries(task, speed), {
      priority: options.priority ?? 0,
      throwOnTimeout: true,
    }) as Promise<T>;
  }

  private withLimitRetries<T>(task: () => Promise<T>, speed: number): Promise<T> {
    return withRetry(retryPolicies.downloadSlot, task, { speed, sleep: this.sleep });
  }

  pending(account: string): number {
    const queue = this.queues.get(account);
    return queue ? queue.size + queue.pending : 0;
  }
}
