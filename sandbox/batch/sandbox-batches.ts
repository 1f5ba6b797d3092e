import { createHash, randomBytes } from 'node:crypto';
import type { SandboxConfig } from '../config';
import { findModel } from '../config';
import { EXTENSION_OF, makeThumbnail, padImage, renderImage } from '../image-render';
import { TERMINAL, type BatchRecord, type SandboxStore, type TaskRecord } from '../store';
import { BatchError } from './batch-error';
import type { CreateRequest } from './create-request';

/** Item failure codes deployed gateways report (gateway-notes.md), with where each comes from. */
const ITEM_FAILURES: { code: string; source: 'provider' | 'system'; message: string }[] = [
  {
    code: 'SAFETY_BLOCKED',
    source: 'provider',
    message: 'The provider blocked the prompt or the image for safety.',
  },
  { code: 'INVALID_ARGUMENT', source: 'provider', message: 'The provider refused a parameter of this item.' },
  { code: 'PROVIDER_RATE_LIMITED', source: 'provider', message: 'The provider rate-limited this item.' },
  { code: 'PROVIDER_ITEM_FAILED', source: 'provider', message: 'The provider failed to generate this item.' },
  { code: 'EMPTY_IMAGE_OUTPUT', source: 'provider', message: 'The provider answered without an image.' },
  {
    code: 'PROVIDER_RESULT_MISSING',
    source: 'system',
    message: 'The result of this item is missing upstream.',
  },
];

/** `[fail]` or `[fail:CODE]` in a prompt makes its item fail, so tests can choose failures. */
const FORCED_FAILURE = /\[fail(?::([A-Z_]+))?\]/;

const round = (n: number) => Math.round(n * 1e6) / 1e6;
const seconds = (ms: number) => Math.floor(ms / 1000);

function unitFraction(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

export interface BatchCounts {
  success: number;
  failed: number;
  pending: number;
}

export class SandboxBatches {
  private rendering = new Set<string>();

  constructor(
    private config: SandboxConfig,
    private store: SandboxStore,
    private timeScale: number,
    private itemFailureRate: () => number,
  ) {
    // Render jobs cut short by a restart start again.
    for (const batch of store.batches.values())
      if (batch.status === 'processing_results') this.startRender(batch);
  }

  private phaseMs(seconds: number): number {
    return (seconds * 1000) / this.timeScale;
  }

  unitPrice(key: string, model: string): number {
    const account = this.config.accounts.find((a) => a.key === key);
    const price = findModel(this.config, model)?.batchPrice ?? 0;
    return price * (account?.groupMultiplier ?? 1) * this.config.billing.accountMultiplier;
  }

  /** Creates the batch and places its hold; throws 402 when the hold does not fit. */
  async create(key: string, request: CreateRequest): Promise<BatchRecord> {
    const account = this.store.account(key);
    const unit = this.unitPrice(key, request.model);
    const count = request.tasks.length;
    const estimated = round(unit * this.config.billing.batchDiscount * count);
    const hold = round(unit * this.config.billing.holdMultiplier * count);
    if (account.balance - account.held < hold) {
      throw new BatchError(
        402,
        'BATCH_IMAGE_INSUFFICIENT_BALANCE',
        `the balance cannot cover a hold of ${hold}; available ${round(account.balance - account.held)}`,
      );
    }

    const thumbs = new Map<Buffer, string>();
    for (const task of request.tasks) {
      for (const ref of task.refs) {
        if (thumbs.has(ref.data)) continue;
        const hash = createHash('sha256').update(ref.data).digest('hex').slice(0, 32);
        try {
          if (!this.store.blobs.get(`refs/${hash}.png`))
            this.store.blobs.put(`refs/${hash}.png`, await makeThumbnail(ref.data));
        } catch {
          throw new BatchError(
            400,
            'BATCH_IMAGE_INVALID_REFERENCE_IMAGE',
            'a reference image could not be decoded',
          );
        }
        thumbs.set(ref.data, hash);
      }
    }

    const now = Date.now();
    const id = `imgbatch_${randomBytes(16).toString('hex')}`;
    const failureRate = this.itemFailureRate();
    const tasks: TaskRecord[] = request.tasks.map((task) => {
      const forced = FORCED_FAILURE.exec(task.prompt);
      const fails = forced !== null || unitFraction(`${id}/${task.customId}`) < failureRate;
      const record: TaskRecord = {
        customId: task.customId,
        prompt: task.prompt,
        refs: task.refs.map((r) => thumbs.get(r.data)!),
        outcome: fails ? 'failed' : 'success',
        outputIndex: task.outputIndex,
      };
      if (fails) {
        const chosen =
          ITEM_FAILURES.find((f) => f.code === forced?.[1]) ??
          ITEM_FAILURES[Math.floor(unitFraction(`${task.customId}#code`) * ITEM_FAILURES.length)]!;
        record.error = { code: forced?.[1] ?? chosen.code, message: chosen.message, source: chosen.source };
      }
      return record;
    });

    const parent = request.parentBatchId ? this.store.batches.get(request.parentBatchId) : undefined;
    const batch: BatchRecord = {
      id,
      key,
      taskName: request.taskName ?? new Date(now).toISOString(),
      model: request.model,
      status: 'queued',
      responseMime: request.responseMime,
      metadata: request.metadata,
      // Lineage is one level deep: a retry of a retry points at the root.
      parentBatchId:
        parent && parent.key === key ? (parent.parentBatchId ?? parent.id) : request.parentBatchId,
      tasks,
      estimatedCost: estimated,
      holdAmount: hold,
      actualCost: null,
      createdAt: seconds(now),
      submittedAt: seconds(now),
      settledAt: null,
      phaseStartedMs: now,
      renderDone: false,
      recordDeleted: false,
    };
    account.held = round(account.held + hold);
    account.holdsPlaced += 1;
    account.batchesCreated += 1;
    this.store.batches.set(id, batch);
    this.store.changed();
    return batch;
  }

  /** Moves a batch along its phases by the scaled clock. Called on every read and by a ticker. */
  advance(batch: BatchRecord, now = Date.now()): void {
    for (;;) {
      const before = batch.status;
      this.step(batch, now);
      if (batch.status === before) return;
      this.store.changed();
    }
  }

  private step(batch: BatchRecord, now: number): void {
    const t = this.config.timing;
    const elapsed = now - batch.phaseStartedMs;
    const cancelDue =
      batch.cancelRequestedMs !== undefined && now >= batch.cancelRequestedMs + this.phaseMs(t.cancelDelayS);
    switch (batch.status) {
      case 'queued':
        if (elapsed >= this.phaseMs(t.queuedS))
          this.enter(batch, 'running', batch.phaseStartedMs + this.phaseMs(t.queuedS));
        return;
      case 'running':
        if (cancelDue) return this.finishCancelled(batch, now);
        if (elapsed >= this.phaseMs(t.runningS)) {
          this.enter(batch, 'processing_results', batch.phaseStartedMs + this.phaseMs(t.runningS));
          this.startRender(batch);
        }
        return;
      case 'processing_results':
        if (cancelDue) return this.finishCancelled(batch, now);
        if (batch.renderDone && elapsed >= this.phaseMs(t.processingS)) {
          this.enter(
            batch,
            'settling',
            Math.max(now - 1, batch.phaseStartedMs + this.phaseMs(t.processingS)),
          );
        }
        return;
      case 'settling':
        if (elapsed >= this.phaseMs(t.settlingS))
          this.settle(batch, batch.phaseStartedMs + this.phaseMs(t.settlingS));
        return;
      case 'completed':
        if (batch.outputsExpireMs !== undefined && now >= batch.outputsExpireMs)
          this.deleteOutputFiles(batch);
        return;
      default:
        return;
    }
  }

  private enter(batch: BatchRecord, status: BatchRecord['status'], at: number): void {
    batch.status = status;
    batch.phaseStartedMs = at;
  }

  private releaseHold(batch: BatchRecord, charge: number): void {
    const account = this.store.account(batch.key);
    account.held = round(Math.max(0, account.held - batch.holdAmount));
    account.balance = round(account.balance - charge);
    account.holdsReleased += 1;
  }

  private settle(batch: BatchRecord, at: number): void {
    const success = batch.tasks.filter((t) => t.outcome === 'success').length;
    const actual = round(
      this.unitPrice(batch.key, batch.model) * this.config.billing.batchDiscount * success,
    );
    batch.actualCost = actual;
    batch.settledAt = seconds(at);
    this.releaseHold(batch, actual);
    this.enter(batch, success > 0 ? 'completed' : 'failed', at);
    if (success > 0) batch.outputsExpireMs = at + this.phaseMs(this.config.timing.retentionS);
    else this.store.blobs.removePrefix(`outputs/${batch.id}`);
  }

  private finishCancelled(batch: BatchRecord, at: number): void {
    batch.finishedAtCancel = this.finishedCount(batch, at);
    batch.actualCost = 0;
    batch.settledAt = seconds(at);
    this.releaseHold(batch, 0);
    this.enter(batch, 'cancelled', at);
    this.store.blobs.removePrefix(`outputs/${batch.id}`);
  }

  private deleteOutputFiles(batch: BatchRecord): void {
    this.store.blobs.removePrefix(`outputs/${batch.id}`);
    this.enter(batch, 'output_deleted', Date.now());
  }

  /** Renders every successful task's image; the batch leaves processing_results only when done. */
  private startRender(batch: BatchRecord): void {
    if (batch.renderDone || this.rendering.has(batch.id)) return;
    this.rendering.add(batch.id);
    void (async () => {
      try {
        for (const task of batch.tasks) {
          if (task.outcome !== 'success' || batch.status !== 'processing_results') continue;
          const name = this.outputName(batch, task);
          if (this.store.blobs.get(name)) continue;
          const thumbnails = task.refs
            .map((hash) => this.store.blobs.get(`refs/${hash}.png`))
            .filter((b): b is Buffer => b !== undefined);
          const image = padImage(
            await renderImage({
              prompt: task.prompt,
              label: task.customId,
              variant: String(task.outputIndex),
              width: 1024,
              height: 1024,
              mime: batch.responseMime,
              thumbnails,
            }),
            batch.responseMime,
            this.config.imagePaddingBytes,
          );
          if (batch.status !== 'processing_results') return;
          this.store.blobs.put(name, image);
        }
        batch.renderDone = true;
        this.store.changed();
      } finally {
        this.rendering.delete(batch.id);
      }
    })();
  }

  outputName(batch: BatchRecord, task: TaskRecord): string {
    return `outputs/${batch.id}/${createHash('sha1').update(task.customId).digest('hex')}.${EXTENSION_OF[batch.responseMime]}`;
  }

  /** How many tasks have finished: during `running` they finish one by one across the phase. */
  private finishedCount(batch: BatchRecord, now: number): number {
    const n = batch.tasks.length;
    switch (batch.status) {
      case 'queued':
        return 0;
      case 'running':
        return Math.min(
          n,
          Math.floor(((now - batch.phaseStartedMs) * (n + 1)) / this.phaseMs(this.config.timing.runningS)),
        );
      case 'cancelled':
        return batch.finishedAtCancel ?? 0;
      default:
        return n;
    }
  }

  taskState(batch: BatchRecord, index: number, now = Date.now()): 'pending' | 'success' | 'failed' {
    return index < this.finishedCount(batch, now) ? batch.tasks[index]!.outcome : 'pending';
  }

  counts(batch: BatchRecord, now = Date.now()): BatchCounts {
    const counts: BatchCounts = { success: 0, failed: 0, pending: 0 };
    const finished = this.finishedCount(batch, now);
    batch.tasks.forEach((task, i) => {
      counts[i < finished ? task.outcome : 'pending'] += 1;
    });
    return counts;
  }

  cancel(batch: BatchRecord): void {
    if (TERMINAL.has(batch.status) || batch.status === 'settling') return;
    if (batch.status === 'queued') {
      this.finishCancelled(batch, Date.now());
    } else if (batch.cancelRequestedMs === undefined) {
      // Already upstream: the cancel is sent on, and takes effect a little later.
      batch.cancelRequestedMs = Date.now();
    }
    this.store.changed();
  }

  deleteOutputs(batch: BatchRecord): void {
    if (batch.status === 'output_deleted') return;
    if (batch.status !== 'completed') {
      throw new BatchError(
        409,
        'BATCH_IMAGE_OUTPUT_DELETE_NOT_READY',
        `outputs can be deleted only from a completed batch; this one is ${batch.status}`,
      );
    }
    this.deleteOutputFiles(batch);
    this.store.changed();
  }

  deleteRecord(batch: BatchRecord): void {
    if (!TERMINAL.has(batch.status)) {
      throw new BatchError(
        409,
        'BATCH_IMAGE_RECORD_DELETE_NOT_READY',
        `only a finished batch can have its record deleted; this one is ${batch.status}`,
      );
    }
    batch.recordDeleted = true;
    this.store.changed();
  }

  /**
   * Admin fault: the server loses the batch's record whatever its state, as deployed gateways have
   * been seen to do to running batches. The batch answers 404 from then on.
   */
  vanish(batch: BatchRecord): void {
    batch.recordDeleted = true;
    this.store.changed();
  }

  /** Admin fault: a completed batch's outputs expire now instead of at the end of retention. */
  expireOutputs(batch: BatchRecord): void {
    this.advance(batch);
    if (batch.status === 'output_deleted') return;
    if (batch.status !== 'completed') {
      throw new BatchError(
        409,
        'BATCH_IMAGE_OUTPUT_DELETE_NOT_READY',
        `only a completed batch has outputs to expire; this one is ${batch.status}`,
      );
    }
    this.deleteOutputFiles(batch);
    this.store.changed();
  }

  tick(): void {
    const now = Date.now();
    for (const batch of this.store.batches.values()) {
      if (!TERMINAL.has(batch.status) || batch.status === 'completed') this.advance(batch, now);
    }
  }
}
