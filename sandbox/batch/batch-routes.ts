import type { SandboxConfig } from '../config';
import {
  BodyTooLarge,
  BodyUnreadable,
  InvalidJson,
  bearer,
  header,
  parseJson,
  readBody,
  segmentsAfter,
  sendEmpty,
  sendJson,
  type Exchange,
} from '../exchange';
import { EXTENSION_OF } from '../image-render';
import { echoRejectedKey } from '../key-echo';
import { TERMINAL, type BatchRecord, type BatchStatus, type SandboxStore } from '../store';
import { BatchError } from './batch-error';
import type { SandboxBatches } from './sandbox-batches';
import { parseCreateRequest } from './create-request';
import type { DownloadSlots } from './download-slots';
import { BatchDownloads } from './batch-downloads';
import { hashOfBody } from './body-hash';
import { pageLimit, pageOffset, parseTime } from './list-paging';

export const BATCH_PREFIX = '/v1/images/batches';

const STATUSES: BatchStatus[] = [
  'queued',
  'running',
  'processing_results',
  'settling',
  'completed',
  'failed',
  'cancelled',
  'output_deleted',
];

export class BatchRoutes {
  constructor(
    private config: SandboxConfig,
    private store: SandboxStore,
    private batches: SandboxBatches,
    private slots: DownloadSlots,
    private slowMs: () => number,
    private lateMs: () => number = () => 0,
    private cutAt: () => number = () => 0.6,
  ) {
    this.downloads = new BatchDownloads(config, store, batches, slots, slowMs, cutAt);
  }

  private downloads: BatchDownloads;

  async handle(ex: Exchange): Promise<void> {
    try {
      await this.route(ex);
    } catch (err) {
      if (err instanceof BatchError) return sendJson(ex, err.status, err.body());
      throw err;
    }
  }

  private authenticate(ex: Exchange): string {
    const key = bearer(ex.req) ?? header(ex.req, 'x-api-key') ?? header(ex.req, 'x-imgvendor-api-key');
    if (!key) {
      throw new BatchError(
        401,
        'API_KEY_REQUIRED',
        'send the API key as Authorization: Bearer <key>',
        'authentication_error',
      );
    }
    const account = this.config.accounts.find((a) => a.key === key);
    if (!account)
      throw new BatchError(
        401,
        'INVALID_API_KEY',
        this.config.echoKeyInErrors
          ? `the API key ${echoRejectedKey(ex, key)} is not valid`
          : 'the API key is not valid',
        'authentication_error',
      );
    if (!this.config.batchEnabled) {
      throw new BatchError(
        404,
        'BATCH_IMAGE_DISABLED',
        'batch image generation is not enabled on this gateway',
      );
    }
    if (!account.batch || account.platform !== 'native') {
      throw new BatchError(
        403,
        'BATCH_IMAGE_GROUP_DISABLED',
        "this key's group does not allow batch image generation",
      );
    }
    return key;
  }

  private async route(ex: Exchange): Promise<void> {
    const key = this.authenticate(ex);
    const segments = segmentsAfter(ex.url.pathname, BATCH_PREFIX);
    if (!segments)
      throw new BatchError(400, 'BATCH_IMAGE_INVALID_PATH', 'the path is not properly percent-encoded');
    const [id, sub, customId, leaf, ...rest] = segments;
    const m = ex.method;

    if (segments.length === 0) {
      if (m === 'POST') return this.create(ex, key);
      if (m === 'GET') return this.list(ex, key);
    } else if (id === 'models' && segments.length === 1 && m === 'GET') {
      return this.models(ex);
    } else if (id !== undefined && rest.length === 0) {
      if (sub === undefined) {
        if (m === 'GET') return this.get(ex, key, id);
        if (m === 'DELETE') return this.deleteRecord(ex, key, id);
      } else if (sub === 'items' && customId === undefined && m === 'GET') {
        return this.items(ex, key, id);
      } else if (sub === 'items' && customId !== undefined && leaf === 'content' && m === 'GET') {
        return this.downloads.content(ex, key, this.find(key, id), customId);
      } else if (sub === 'download' && customId === undefined && m === 'GET') {
        return this.downloads.zip(ex, key, this.find(key, id));
      } else if (sub === 'cancel' && customId === undefined && m === 'POST') {
        return this.cancel(ex, key, id);
      } else if (sub === 'outputs' && customId === undefined && m === 'DELETE') {
        return this.deleteOutputs(ex, key, id);
      }
    }
    throw new BatchError(
      404,
      'BATCH_IMAGE_ROUTE_NOT_FOUND',
      `no batch endpoint answers ${m} ${ex.url.pathname}`,
    );
  }

  private models(ex: Exchange): void {
    const data = this.config.models
      .filter((model) => model.batchPrice !== undefined && model.batchAccount)
      .map((model) => ({ id: model.id, object: 'image.batch.model' }));
    sendJson(ex, 200, { object: 'list', data });
  }

  private find(key: string, id: string): BatchRecord {
    const batch = this.store.batches.get(id);
    // Another key's batch is answered exactly like a batch that does not exist.
    if (!batch || batch.key !== key || batch.recordDeleted) {
      throw new BatchError(404, 'BATCH_IMAGE_NOT_FOUND', `no batch "${id}" for this key`);
    }
    this.batches.advance(batch);
    return batch;
  }

  view(batch: BatchRecord): Record<string, unknown> {
    const counts = this.batches.counts(batch);
    return {
      id: batch.id,
      object: 'image.batch',
      task_name: batch.taskName,
      status: batch.status,
      model: batch.model,
      item_count: batch.tasks.length,
      success_count: counts.success,
      fail_count: counts.failed,
      estimated_cost: batch.estimatedCost,
      hold_amount: batch.holdAmount,
      actual_cost: batch.actualCost,
      created_at: batch.createdAt,
      submitted_at: batch.submittedAt,
      settled_at: batch.settledAt,
      parent_batch_id: batch.parentBatchId ?? null,
      metadata: batch.metadata ?? null,
    };
  }

  private sendCreated(ex: Exchange, batch: BatchRecord): void {
    if (this.config.variant.createStatus === 202) {
      return sendJson(ex, 202, this.view(batch), {
        location: `${BATCH_PREFIX}/${encodeURIComponent(batch.id)}`,
        'retry-after': '5',
      });
    }
    sendJson(ex, 200, this.view(batch));
  }

  private async create(ex: Exchange, key: string): Promise<void> {
    let body: unknown;
    try {
      body = parseJson(await readBody(ex.req, this.config.limits.maxBodyBytes));
    } catch (err) {
      if (err instanceof BodyTooLarge)
        throw new BatchError(413, 'BATCH_IMAGE_REQUEST_TOO_LARGE', err.message);
      if (err instanceof InvalidJson || err instanceof BodyUnreadable) {
        throw new BatchError(400, 'BATCH_IMAGE_INVALID_JSON', err.message);
      }
      throw err;
    }

    const idempotencyKey = header(ex.req, 'idempotency-key');
    if (idempotencyKey && Buffer.byteLength(idempotencyKey) > this.config.limits.maxIdempotencyKeyBytes) {
      throw new BatchError(
        400,
        'BATCH_IMAGE_INVALID_ITEMS',
        `Idempotency-Key is longer than ${this.config.limits.maxIdempotencyKeyBytes} bytes`,
      );
    }
    const bodyHash = hashOfBody(body);
    const remembered = idempotencyKey ? this.store.idempotencyFor(key).get(idempotencyKey) : undefined;
    if (remembered) {
      if (remembered.bodyHash !== bodyHash) {
        throw new BatchError(
          409,
          'BATCH_IMAGE_IDEMPOTENCY_CONFLICT',
          'this Idempotency-Key was used with a different body; use a new key for a new batch',
        );
      }
      if (remembered.batchId) {
        const batch = this.store.batches.get(remembered.batchId)!;
        this.batches.advance(batch);
        return this.sendCreated(ex, batch);
      }
      return sendJson(ex, remembered.status, remembered.error);
    }

    let batch: BatchRecord;
    try {
      const request = parseCreateRequest(this.config, body);
      const gatewayFault = this.gatewayFault(ex);
      if (gatewayFault) throw gatewayFault;
      batch = await this.batches.create(key, request);
    } catch (err) {
      // A definite error keeps its key: replaying the key returns the same failure.
      if (err instanceof BatchError && idempotencyKey) {
        this.store
          .idempotencyFor(key)
          .set(idempotencyKey, { bodyHash, status: err.status, error: err.body() });
        this.store.changed();
      }
      throw err;
    }
    if (idempotencyKey) {
      this.store.idempotencyFor(key).set(idempotencyKey, { bodyHash, batchId: batch.id, status: 200 });
      this.store.changed();
    }
    if (ex.fault === 'lostcreate') {
      // The batch exists and its hold is placed, but the answer never reaches the client.
      this.store.flush();
      ex.res.socket?.destroy();
      return;
    }
    if (ex.fault === 'latecreate') {
      // The batch runs meanwhile; only the answer is late, past a client's timeout.
      this.store.flush();
      await new Promise((resolve) => setTimeout(resolve, this.lateMs()));
      if (ex.res.destroyed) return;
      this.batches.advance(batch);
    }
    this.sendCreated(ex, batch);
  }

  private gatewayFault(ex: Exchange): BatchError | undefined {
    switch (ex.fault) {
      case 'not_ready':
        return new BatchError(
          503,
          'BATCH_IMAGE_NOT_READY',
          'the batch runtime is not ready; try again shortly',
          'api_error',
        );
      case 'submit_failed':
        return new BatchError(
          502,
          'BATCH_IMAGE_PROVIDER_SUBMIT_FAILED',
          'the upstream batch could not be created',
        );
      case 'queue_failed':
        return new BatchError(
          502,
          'BATCH_IMAGE_QUEUE_FAILED',
          'the asynchronous task service is unavailable',
        );
      case 'hold_failed':
        return new BatchError(502, 'BATCH_IMAGE_BILLING_HOLD_FAILED', 'the balance hold could not be placed');
      case 'no_account':
        return new BatchError(
          502,
          'BATCH_IMAGE_NO_ACCOUNT_AVAILABLE',
          'no batch execution account is available',
        );
      default:
        return undefined;
    }
  }

  private list(ex: Exchange, key: string): void {
    const q = ex.url.searchParams;
    const status = q.get('status');
    if (status && !STATUSES.includes(status as BatchStatus)) {
      throw new BatchError(400, 'BATCH_IMAGE_INVALID_STATUS', `status "${status}" is not a batch status`);
    }
    const downloadedRaw = q.get('downloaded');
    let downloaded: boolean | undefined;
    if (downloadedRaw !== null) {
      const v = downloadedRaw.toLowerCase();
      if (['true', '1', 'yes'].includes(v)) downloaded = true;
      else if (['false', '0', 'no'].includes(v)) downloaded = false;
      else
        throw new BatchError(
          400,
          'BATCH_IMAGE_INVALID_DOWNLOADED',
          `downloaded must be true or false, got "${downloadedRaw}"`,
        );
    }
    const name = q.get('task_name')?.toLowerCase();
    const from = parseTime(q.get('from'));
    const to = parseTime(q.get('to'));
    const limit = pageLimit(q.get('limit'), this.config.limits.listDefault, this.config.limits.listMax);
    const offset = pageOffset(q.get('cursor'));

    const matching = [...this.store.batches.values()]
      .filter((b) => b.key === key && !b.recordDeleted)
      .map((b) => {
        this.batches.advance(b);
        return b;
      })
      .filter(
        (b) =>
          (!status || b.status === status) &&
          (!name || b.taskName.toLowerCase().includes(name)) &&
          (downloaded === undefined || (b.downloadedAt !== undefined) === downloaded) &&
          (from === undefined || b.createdAt >= from) &&
          (to === undefined || b.createdAt < to),
      )
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const page = matching.slice(offset, offset + limit);
    // Like deployed gateways, has_more only says the page was full.
    sendJson(ex, 200, {
      object: 'list',
      data: page.map((b) => this.view(b)),
      has_more: page.length === limit,
    });
  }

  private get(ex: Exchange, key: string, id: string): void {
    sendJson(ex, 200, this.view(this.find(key, id)));
  }

  private items(ex: Exchange, key: string, id: string): void {
    const batch = this.find(key, id);
    const q = ex.url.searchParams;
    const raw = (q.get('status') ?? 'all').toLowerCase();
    const filter = raw === 'succeeded' ? 'success' : raw;
    if (!['all', 'pending', 'success', 'failed'].includes(filter)) {
      throw new BatchError(400, 'BATCH_IMAGE_INVALID_STATUS', `status "${raw}" is not an item status`);
    }
    const limit = pageLimit(q.get('limit'), this.config.limits.itemsDefault, this.config.limits.itemsMax);
    const offset = pageOffset(q.get('cursor') ?? q.get('offset'));
    const now = Date.now();
    const ext = EXTENSION_OF[batch.responseMime];
    const entries = batch.tasks
      .map((task, i) => ({ task, state: this.batches.taskState(batch, i, now) }))
      .filter(({ state }) => filter === 'all' || state === filter);
    const page = entries.slice(offset, offset + limit).map(({ task, state }) => {
      const hasImage = state === 'success';
      return {
        custom_id: task.customId,
        status: state === 'success' ? this.config.variant.itemSuccessWord : state,
        prompt_preview: task.prompt,
        mime_type: hasImage ? batch.responseMime : null,
        file_extension: hasImage ? ext : null,
        image_count: hasImage ? 1 : 0,
        error: state === 'failed' ? (task.error ?? null) : null,
      };
    });
    sendJson(ex, 200, { object: 'list', data: page, has_more: page.length === limit });
  }

  private cancel(ex: Exchange, key: string, id: string): void {
    const batch = this.find(key, id);
    if (ex.fault === 'cancel_failed' && !TERMINAL.has(batch.status)) {
      throw new BatchError(502, 'BATCH_IMAGE_CANCEL_FAILED', 'the upstream batch could not be cancelled');
    }
    this.batches.cancel(batch);
    sendJson(ex, 200, this.view(batch));
  }

  private deleteOutputs(ex: Exchange, key: string, id: string): void {
    const batch = this.find(key, id);
    this.batches.deleteOutputs(batch);
    sendJson(ex, 200, this.view(batch));
  }

  private deleteRecord(ex: Exchange, key: string, id: string): void {
    this.batches.deleteRecord(this.find(key, id));
    sendEmpty(ex, 204);
  }
}
