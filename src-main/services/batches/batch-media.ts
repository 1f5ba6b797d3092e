import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSharp } from '../lazy-imports';
import type { BatchItemView } from '../../../src-shared/batch-view';
import { customIdOf, expandedIds, rowOfTask } from '../../../src-shared/draft';
import { StudioError } from '../../../src-shared/studio-error';
import { logCaught } from '../log/studio-log';
import type { BatchClients } from './batch-clients';
import type { BatchRecords } from './batch-records';
import type { DownloadGate } from './download-gate';
import type { SubmissionStore } from './submission-store';
import type { TrackedBatch } from './tracked-batch';

export interface BatchMediaDeps {
  records: BatchRecords;
  submissions: Pick<SubmissionStore, 'get'>;
  clients: BatchClients;
  gate: Pick<DownloadGate, 'run'>;
  libraryRoot(): string;
}

/**
 * What a batch of the active profile holds, item by item: its items with their prompts and files,
 * their images and previews, and its folder in the library. From the library once downloaded, and
 * from the gateway (or the saved draft) before.
 */
export class BatchMedia {
  private previews = new Map<string, Buffer>();

  constructor(private deps: BatchMediaDeps) {}

  async items(id: string): Promise<BatchItemView[]> {
    const batch = this.deps.records.find(id);
    const draft = batch.submissionId ? this.deps.submissions.get(batch.submissionId)?.draft : undefined;
    const files = await this.localFiles(batch);
    let remote;
    try {
      remote = await this.deps.clients.clientFor(batch.profileId).items(id, 'all');
    } catch (err) {
      // Offline or gone: the library's own record still tells what each item was.
      if (files.size === 0 && !draft) throw err;
      remote = undefined;
    }
    // Without the server, the items are what the library holds and, beyond it, the saved draft's.
    const known = new Set(files.keys());
    const fromDraft = draft
      ? draft.items.flatMap((item, index) => expandedIds(customIdOf(item, index), item.outputCount))
      : [];
    const entries =
      remote ??
      [...files.keys(), ...fromDraft.filter((id) => !known.has(id))].map((customId) => ({
        custom_id: customId,
        status: known.has(customId) ? 'success' : 'unknown',
        prompt_preview: '',
        error: null,
      }));
    // A cancelled batch's unfinished items never run: the gateway keeps calling them pending.
    const unfinished: BatchItemView['status'] = batch.remote.status === 'cancelled' ? 'cancelled' : 'pending';
    return entries.map((item) => {
      const row = draft ? rowOfTask(draft, item.custom_id) : undefined;
      const local = files.get(item.custom_id);
      return {
        customId: item.custom_id,
        status: item.status === 'success' ? 'success' : item.status === 'failed' ? 'failed' : unfinished,
        prompt: row && draft ? draft.items[row.index]!.prompt : (item.prompt_preview ?? ''),
        rowIndex: row?.index ?? null,
        error: item.error ? { code: item.error.code, message: item.error.message } : null,
        file: local?.file ?? null,
        mime: local?.mime ?? null,
      };
    });
  }

  private async localFiles(batch: TrackedBatch): Promise<Map<string, { file: string; mime: string }>> {
    const folder = batch.download.folder;
    if (!folder) return new Map();
    try {
      const record = JSON.parse(
        await readFile(join(this.deps.libraryRoot(), folder, 'batch.json'), 'utf8'),
      ) as {
        images: { customId: string; file: string; mime: string; imageIndex: number }[];
      };
      return new Map(
        record.images
          .filter((i) => i.imageIndex === 0)
          .map((i) => [i.customId, { file: `${folder}/${i.file}`, mime: i.mime }]),
      );
    } catch (err) {
      logCaught('library record of a batch', err);
      return new Map();
    }
  }

  /**
   * A small preview of one item: from the library once downloaded, otherwise from the gateway's
   * content endpoint, waiting its turn at the account's one-download gate ahead of bulk downloads.
   */
  async preview(id: string, customId: string): Promise<{ webp: Buffer; source: 'library' | 'gateway' }> {
    const batch = this.deps.records.find(id);
    const local = (await this.localFiles(batch)).get(customId);
    const cacheKey = `${batch.profileId}/${id}/${customId}/${local ? 'l' : 'g'}`;
    const cached = this.previews.get(cacheKey);
    if (cached) return { webp: cached, source: local ? 'library' : 'gateway' };
    const { data } = await this.itemImage(id, customId);
    const sharp = await loadSharp();
    const thumb = await sharp(data).resize(320, 320, { fit: 'inside' }).webp({ quality: 80 }).toBuffer();
    if (this.previews.size > 400) this.previews.delete(this.previews.keys().next().value!);
    this.previews.set(cacheKey, thumb);
    return { webp: thumb, source: local ? 'library' : 'gateway' };
  }

  /**
   * An item's image itself: from the library once downloaded (with its library id), else from the
   * gateway, one item at a time and behind the account's download slot.
   */
  async itemImage(
    id: string,
    customId: string,
  ): Promise<{ data: Buffer; mime?: string; libraryId?: string }> {
    const { clients } = this.deps;
    const batch = this.deps.records.find(id);
    const local = (await this.localFiles(batch)).get(customId);
    if (local) {
      const data = await readFile(join(this.deps.libraryRoot(), local.file));
      return { data, mime: local.mime, libraryId: local.file };
    }
    if (batch.remote.status !== 'completed') {
      throw new StudioError({
        code: 'BATCH_IMAGE_NOT_READY',
        message: 'Previews come once the batch is completed.',
      });
    }
    const client = clients.clientFor(batch.profileId);
    const dir = await mkdtemp(join(tmpdir(), 'studio-preview-'));
    try {
      const file = join(dir, 'image');
      await this.deps.gate.run(
        clients.accountOf(batch.profileId),
        () => client.downloadTo(client.contentPath(id, customId), file, () => undefined),
        {
          priority: 1,
          speed: clients.speedFor(batch.profileId),
        },
      );
      return { data: await readFile(file) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The batch's folder in the library, once downloaded. */
  folderOf(id: string): string | undefined {
    const folder = this.deps.records.find(id).download.folder;
    return folder ? join(this.deps.libraryRoot(), folder) : undefined;
  }
}
