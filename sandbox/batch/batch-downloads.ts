import type { SandboxConfig } from '../config';
import type { Exchange } from '../exchange';
import { EXTENSION_OF } from '../image-render';
import type { BatchRecord, SandboxStore } from '../store';
import { BROKEN_IMAGE_BODY } from '../faults';
import { BatchError } from './batch-error';
import { buildBatchZip } from './batch-zip';
import type { SandboxBatches } from './sandbox-batches';
import { sendBody } from './body-sending';
import type { DownloadSlots } from './download-slots';

/**
 * A completed batch's outputs: one item's image, or the whole batch as a ZIP, each in the account's
 * download slots, and the batch marked downloaded once a body has left whole.
 */
export class BatchDownloads {
  constructor(
    private config: SandboxConfig,
    private store: SandboxStore,
    private batches: SandboxBatches,
    private slots: DownloadSlots,
    private slowMs: () => number,
    private cutAt: () => number,
  ) {}

  private requireOutputs(batch: BatchRecord): void {
    if (batch.status === 'output_deleted') {
      throw new BatchError(410, 'BATCH_IMAGE_OUTPUT_DELETED', 'the outputs of this batch were deleted');
    }
    if (batch.status !== 'completed') {
      throw new BatchError(
        409,
        'BATCH_IMAGE_NOT_READY',
        `the batch is ${batch.status}; outputs are ready once it is completed`,
      );
    }
  }

  /** One item's image. */
  async content(ex: Exchange, key: string, batch: BatchRecord, customId: string): Promise<void> {
    this.requireOutputs(batch);
    const task = batch.tasks.find((t) => t.customId === customId);
    if (!task) throw new BatchError(404, 'BATCH_IMAGE_ITEM_NOT_FOUND', `no item "${customId}" in this batch`);
    if (task.outcome !== 'success') {
      throw new BatchError(409, 'BATCH_IMAGE_ITEM_FAILED', `item "${customId}" has no successful image`);
    }
    const indexRaw = ex.url.searchParams.get('image_index') ?? '0';
    if (!/^\d+$/.test(indexRaw) || Number(indexRaw) !== 0) {
      throw new BatchError(
        400,
        'BATCH_IMAGE_ITEM_IMAGE_INDEX_OUT_OF_RANGE',
        `image_index ${indexRaw} is out of range; this item has 1 image`,
      );
    }
    const data = this.store.blobs.get(this.batches.outputName(batch, task));
    if (!data) throw new BatchError(500, 'BATCH_IMAGE_RESULT_MISSING', 'the image of this item is missing');
    await this.slots.run(key, ex, async () => {
      // Deployed gateways send no Content-Length here.
      ex.res.writeHead(200, { 'content-type': batch.responseMime });
      if (ex.fault === 'badimage') {
        ex.res.end(BROKEN_IMAGE_BODY);
        return;
      }
      const done = await sendBody(ex, data, { slowMs: this.slowMs() });
      if (done) this.markDownloaded(batch);
    });
  }

  /** The whole batch as a ZIP, from a Range's start where the gateway honours it. */
  async zip(ex: Exchange, key: string, batch: BatchRecord): Promise<void> {
    this.requireOutputs(batch);
    const maxRaw = ex.url.searchParams.get('max_items');
    let cap = this.config.limits.maxZipItems;
    if (maxRaw !== null) {
      const n = Number(maxRaw);
      if (!Number.isInteger(n) || n < 1)
        throw new BatchError(400, 'BATCH_IMAGE_INVALID_ITEMS', 'max_items must be a positive integer');
      cap = Math.min(cap, n);
    }
    const successes = batch.tasks.filter((t) => t.outcome === 'success');
    if (successes.length > cap) {
      throw new BatchError(
        400,
        'BATCH_IMAGE_ZIP_TOO_MANY_ITEMS',
        `the batch has ${successes.length} images; a ZIP holds at most ${cap}; download items one by one`,
      );
    }
    await this.slots.run(key, ex, async () => {
      const images = successes.map((task) => {
        const data = this.store.blobs.get(this.batches.outputName(batch, task));
        if (!data)
          throw new BatchError(
            500,
            'BATCH_IMAGE_DOWNLOAD_FAILED',
            `the image of ${task.customId} is missing`,
          );
        return {
          customId: task.customId,
          mime: batch.responseMime,
          extension: EXTENSION_OF[batch.responseMime],
          imageIndex: 0,
          data: ex.fault === 'badimage' ? BROKEN_IMAGE_BODY : data,
        };
      });
      const failed = batch.tasks.filter((t) => t.outcome === 'failed');
      const zip = buildBatchZip({
        batchId: batch.id,
        model: batch.model,
        itemCount: batch.tasks.length,
        successCount: successes.length,
        failCount: failed.length,
        images,
        errors: failed.map((t) => ({
          custom_id: t.customId,
          code: t.error?.code ?? 'PROVIDER_ITEM_FAILED',
          message: t.error?.message ?? '',
        })),
        deflate: this.config.deflateZips,
        descriptors: this.config.zipDescriptors,
        // The batch's own time: the same archive, byte for byte, on every request, so a range of it
        // fits the bytes an earlier request gave.
        mtime: new Date(batch.createdAt * 1000),
      });
      const from = this.config.zipRanges ? rangeStart(ex.req.headers.range, zip.length) : undefined;
      const headers = {
        'content-type': 'application/zip',
        'content-disposition': `attachment; filename="${batch.id}.zip"`,
        'accept-ranges': this.config.zipRanges ? 'bytes' : 'none',
      };
      if (from !== undefined) {
        ex.res.writeHead(206, {
          ...headers,
          'content-range': `bytes ${from}-${zip.length - 1}/${zip.length}`,
          'content-length': String(zip.length - from),
        });
      } else ex.res.writeHead(200, headers);
      const done = await sendBody(ex, zip, { from: from ?? 0, cutAt: this.cutAt(), slowMs: this.slowMs() });
      if (done) this.markDownloaded(batch);
    });
  }

  private markDownloaded(batch: BatchRecord): void {
    batch.downloadedAt ??= Math.floor(Date.now() / 1000);
    this.store.changed();
  }
}

/** The start of a `bytes=N-` range within the body, or undefined for none, or one not served. */
function rangeStart(header: string | undefined, length: number): number | undefined {
  const m = /^bytes=(\d+)-$/.exec(header ?? '');
  if (!m) return undefined;
  const from = Number(m[1]);
  return from > 0 && from < length ? from : undefined;
}
