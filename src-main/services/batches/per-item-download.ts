import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadSharp } from '../lazy-imports';
import type { DownloadProgress, DownloadState } from '../../../src-shared/batch-view';
import { StudioError } from '../../../src-shared/studio-error';
import type { BatchClient } from '../gateway/batch-client';
import type { WireItem } from '../gateway/batch-wire';
import { EXTENSION_OF_MIME, UniqueNames, imageStem, safeName, sniffImageType } from '../storage/file-names';
import type { IngestedImage } from '../zip/zip-ingest';
import type { VerifiedImage } from '../zip/zip-stream-ingest';
import { retryPolicies, withRetry } from '../gateway/retry-policy';
import type { DownloadGate } from './download-gate';
import type { TrackedBatch } from './tracked-batch';

export interface ItemRouteDeps {
  gate: DownloadGate;
  speedFor(profileId: string): number;
  /** Writes a change of the batch's download (and announces it); answers the batch as stored. */
  set(batch: TrackedBatch, download: Partial<DownloadState>): TrackedBatch;
  onProgress(progress: DownloadProgress): void;
}

/** A few quick tries for one request that failed in a way a retry can fix. */
export function withRequestRetries<T>(speed: number, task: () => Promise<T>): Promise<T> {
  return withRetry(retryPolicies.downloadRequest, task, { speed }).catch((err: unknown) => {
    throw StudioError.from(err);
  });
}

/**
 * The item route: a batch's images fetched one request each from the gateway's content endpoint,
 * when the ZIP is refused or keeps failing, or for the few images a library folder lacks. With no
 * ZIP CRC to check, every image is verified by decoding it whole.
 */
export class ItemRoute {
  constructor(private deps: ItemRouteDeps) {}

  /** The fallback: each successful item's image on its own, each request in its turn at the gate. */
  async downloadItems(
    batch: TrackedBatch,
    client: BatchClient,
    account: string,
    staging: string,
    items: WireItem[],
    kept: VerifiedImage[] = [],
  ): Promise<{ images: IngestedImage[]; errors: { custom_id: string; code: string; message: string }[] }> {
    const names = new UniqueNames();
    // Images a cut ZIP stream had verified (CRC-32 and size) are kept, by the archive's layout
    // (images/<custom_id>[_n].<ext>): only the rest are fetched.
    const keptBy = new Map(kept.map((k) => [k.entryName.replace(/\.[^./]+$/, ''), k]));
    const successes = items.filter((i) => i.status === 'success');
    // Counted in images, like the running count: an item may carry several.
    const imagesTotal = successes.reduce((sum, item) => sum + Math.max(1, item.image_count), 0);
    const images: IngestedImage[] = [];
    const slot = { batch };
    for (const item of successes) {
      const count = Math.max(1, item.image_count);
      for (let index = 0; index < count; index++) {
        const stem = imageStem(item.custom_id, index);
        const reuse = keptBy.get(`images/${stem}`);
        // Held to the fallback's own test, decoding whole: a ZIP's CRC only says the gateway's bytes came intact.
        if (reuse && (await decodesWhole(await readFile(reuse.path)))) {
          keptBy.delete(`images/${stem}`);
          const name = names.take(safeName(stem), EXTENSION_OF_MIME[reuse.mime]!);
          await rename(reuse.path, join(staging, 'images', name));
          images.push({
            customId: item.custom_id,
            imageIndex: index,
            file: `images/${name}`,
            mime: reuse.mime,
            bytes: reuse.bytes,
          });
          continue;
        }
        const part = join(staging, `item-${images.length}.part`);
        const { data, mime } = await this.fetchImage(slot, client, account, item.custom_id, index, part);
        const name = names.take(safeName(stem), EXTENSION_OF_MIME[mime]!);
        await writeFile(join(staging, 'images', name), data, { flag: 'wx' });
        images.push({
          customId: item.custom_id,
          imageIndex: index,
          file: `images/${name}`,
          mime,
          bytes: data.length,
        });
        this.deps.onProgress({
          batchId: batch.id,
          phase: 'items',
          received: 0,
          images: images.length,
          imagesTotal,
        });
      }
    }
    // What the ZIP had beyond the items asked for is not the batch's: it does not stay.
    for (const unused of keptBy.values()) await rm(unused.path, { force: true });
    const errors = items
      .filter((i) => i.status === 'failed')
      .map((i) => ({
        custom_id: i.custom_id,
        code: i.error?.code ?? 'UNKNOWN',
        message: i.error?.message ?? '',
      }));
    const manifest = {
      batch_id: batch.id,
      model: batch.remote.model,
      item_count: batch.remote.item_count,
      success_count: images.length,
      fail_count: errors.length,
      files: images.map((i) => ({
        custom_id: i.customId,
        filename: i.file,
        mime_type: i.mime,
        image_index: i.imageIndex,
      })),
    };
    await writeFile(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(staging, 'errors.json'), `${JSON.stringify(errors, null, 2)}\n`);
    return { images, errors };
  }

  /**
   * One image by the item route, behind the account's download slot, verified as the fallback
   * verifies (the bytes are an image, and decode to the end). While the slot is taken by another
   * download the batch reads "waiting for a download slot", and "downloading" once its turn comes:
   * the state is written only when it changes, not twice per image.
   */
  async fetchImage(
    slot: { batch: TrackedBatch },
    client: BatchClient,
    account: string,
    customId: string,
    index: number,
    part: string,
  ): Promise<{ data: Buffer; mime: string }> {
    const profileId = slot.batch.profileId;
    if (this.deps.gate.pending(account) > 0 && slot.batch.download.state !== 'queued')
      slot.batch = this.deps.set(slot.batch, { state: 'queued' });
    const { contentType } = await withRequestRetries(this.deps.speedFor(profileId), () =>
      this.deps.gate.run(
        account,
        () => {
          if (slot.batch.download.state !== 'downloading')
            slot.batch = this.deps.set(slot.batch, { state: 'downloading' });
          return client.downloadTo(client.contentPath(slot.batch.id, customId, index), part, () => undefined);
        },
        { speed: this.deps.speedFor(profileId) },
      ),
    );
    const data = await readFile(part);
    await rm(part, { force: true });
    // Gateways may say application/octet-stream: the bytes decide.
    const mime = sniffImageType(data.subarray(0, 16));
    if (!mime) {
      throw new StudioError({
        code: 'STUDIO_IMAGE_INVALID',
        message: `The image of ${customId} is not a PNG, JPEG or WebP (${contentType}).`,
        retryable: true,
      });
    }
    // Item by item there is no ZIP CRC to check: decode every pixel, so a body with a good
    // signature and junk after it never enters the library as a paid image.
    if (!(await decodesWhole(data))) {
      throw new StudioError({
        code: 'STUDIO_IMAGE_INVALID',
        message: `The image of ${customId} arrived damaged: it does not decode to the end.`,
        retryable: true,
      });
    }
    return { data, mime };
  }
}

/** Whether an image decodes from its first byte to its last (sharp fails on truncated or corrupt data). */
async function decodesWhole(data: Buffer): Promise<boolean> {
  try {
    const sharp = await loadSharp();
    await sharp(data, { failOn: 'truncated', limitInputPixels: false }).stats();
    return true;
  } catch {
    return false;
  }
}
