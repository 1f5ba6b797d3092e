import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DownloadProgress, DownloadState } from '../../../src-shared/batch-view';
import { StudioError } from '../../../src-shared/studio-error';
import type { BatchClient } from '../gateway/batch-client';
import type { WireItem } from '../gateway/batch-wire';
import {
  batchFolderName,
  folderContents,
  publishBatchFolder,
  stageExisting,
  type FolderContents,
} from '../library/folders/batch-folder';
import type { BatchJsonInput } from '../library/folders/batch-json';
import { UniqueNames, imageStem, safeName } from '../storage/file-names';
import type { IngestedImage } from '../zip/zip-ingest';
import { ingestBatchZip, type VerifiedImage } from '../zip/zip-stream-ingest';
import type { ReferenceStore } from '../references/reference-store';
import { buildBatchFile } from './batch-file';
import type { BatchStore } from './batch-store';
import type { DownloadGate } from './download-gate';
import { ItemRoute, withRequestRetries } from './per-item-download';
import type { SubmissionStore } from './submission-store';
import type { TrackedBatch } from './tracked-batch';
import { logCaught } from '../log/studio-log';
import { retryPolicies, withRetry } from '../gateway/retry-policy';
import { diskRefusal } from '../storage/disk-refusal';
import type { StudioStaging } from '../library/sharing/studio-staging';
import { adoptedDownload, claimDownload, type FoundFolder } from './download-claim';

export interface DownloaderDeps {
  store: BatchStore;
  submissions: SubmissionStore;
  references: ReferenceStore;
  gate: DownloadGate;
  /** This studio's own staging area in the (maybe shared) library. */
  staging: Pick<StudioStaging, 'newDir'>;
  /** This install's id: whose staging area and download lease it is. */
  studioId: string;
  libraryRoot(): string;
  clientFor(profileId: string): BatchClient;
  accountOf(profileId: string): string;
  speedFor(profileId: string): number;
  profileName(profileId: string): string;
  onChange(batch: TrackedBatch): void;
  onProgress(progress: DownloadProgress): void;
}

const ZIP_ATTEMPTS = 2;

/**
 * `replace`: the whole batch again, replacing its library folder (marks kept). `missing`: for a
 * batch already in the library, only the images its folder lacks; a batch not there (or whose
 * folder's record cannot be read) is downloaded whole, since nothing of it can be kept.
 */
export type DownloadMode = 'replace' | 'missing';

/**
 * Brings a completed batch's images into the library, each paid image exactly once: the ZIP is
 * verified and extracted into a staging folder as it streams in, checked whole against its central
 * directory and manifest, and only then moved into the library in one rename. When the ZIP is refused or keeps failing, the images come one by one instead
 * (item-route.ts).
 */
export class BatchDownloader {
  private running = new Map<string, Promise<void>>();
  private itemRoute: ItemRoute;
  private stopped = false;

  constructor(private deps: DownloaderDeps) {
    this.itemRoute = new ItemRoute({
      gate: deps.gate,
      speedFor: (profileId) => deps.speedFor(profileId),
      set: (batch, download) => this.set(batch, download),
      onProgress: (progress) => deps.onProgress(progress),
    });
  }

  private set(batch: TrackedBatch, download: Partial<DownloadState>): TrackedBatch {
    // "Being downloaded by another studio" holds only until the next step says otherwise.
    const next = this.deps.store.update(batch.profileId, batch.id, (b) => ({
      ...b,
      download: { ...b.download, elsewhere: undefined, ...download },
    }))!;
    this.deps.onChange(next);
    return next;
  }

  /** Starts a download unless one is running; resolves when it ends, successfully or not. */
  enqueue(profileId: string, batchId: string, mode: DownloadMode = 'replace'): Promise<void> {
    const key = `${profileId}/${batchId}`;
    const running = this.running.get(key);
    if (running) return running;
    const batch = this.deps.store.get(profileId, batchId);
    if (!batch) return Promise.resolve();
    this.set(batch, { state: 'queued', error: undefined, zipError: undefined, nextRetryAt: undefined });
    const promise = this.download(profileId, batchId, mode).finally(() => this.running.delete(key));
    this.running.set(key, promise);
    return promise;
  }

  isRunning(profileId: string, batchId: string): boolean {
    return this.running.has(`${profileId}/${batchId}`);
  }

  /** Downloads waiting for another studio's stop waiting. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * Claims the batch across the team first (download-claim.ts): a folder already in the library
   * is adopted, and while another studio downloads it, this one waits for its folder.
   */
  private async download(profileId: string, batchId: string, mode: DownloadMode): Promise<void> {
    const batch = this.deps.store.get(profileId, batchId)!;
    const root = this.deps.libraryRoot();
    const kept = batch.download.folder;
    // "Download again": the user replaces a folder this studio has. Anything else adopts a folder there.
    const again = mode === 'replace' && kept !== undefined && existsSync(join(root, kept));
    const claim = await claimDownload({
      ...{ root, remote: batch.remote, studioId: this.deps.studioId, again },
      completing: mode === 'missing' ? kept : undefined,
      waiting: () => void this.set(batch, { state: 'queued', elsewhere: true }),
      stopped: () => this.stopped,
    });
    if ('stopped' in claim) return;
    if ('adopted' in claim) {
      this.adopt(this.deps.store.get(profileId, batchId) ?? batch, claim.adopted);
      return;
    }
    try {
      await this.downloadClaimed(profileId, batchId, mode, again);
    } finally {
      await claim.lease.release();
    }
  }

  /** A batch whose folder another studio (or this one, before a kill) published: in the library, nothing fetched. */
  private adopt(batch: TrackedBatch, found: FoundFolder): void {
    const images = found.contents.record.images.length;
    this.set(batch, adoptedDownload(found, batch.download.completedAt));
    this.deps.onProgress({ batchId: batch.id, phase: 'done', received: 0, images, imagesTotal: images });
  }

  private async downloadClaimed(
    profileId: string,
    batchId: string,
    mode: DownloadMode,
    again: boolean,
  ): Promise<void> {
    let batch = this.deps.store.get(profileId, batchId)!;
    const client = this.deps.clientFor(profileId);
    const account = this.deps.accountOf(profileId);
    const root = this.deps.libraryRoot();
    const draft = batch.submissionId ? (this.deps.submissions.get(batch.submissionId)?.draft ?? null) : null;
    let staging: string | undefined;
    // Why the ZIP was refused, kept apart: when the fallback fails too, people see both reasons.
    let zipError: StudioError | undefined;
    try {
      const kept = batch.download.folder;
      const contents = mode === 'missing' && kept ? await folderContents(root, kept) : undefined;
      if (kept && contents) {
        await this.completeFolder(batch, client, account, root, kept, contents);
        return;
      }
      let images: IngestedImage[] | undefined;
      let errors: { custom_id: string; code: string; message: string }[] = [];
      let source: 'zip' | 'items' = 'zip';

      // Images a cut stream had verified, kept for the item route when the ZIP cannot be finished.
      let cutImages: VerifiedImage[] = [];
      for (let attempt = 1; attempt <= ZIP_ATTEMPTS && !images; attempt++) {
        staging = await this.deps.staging.newDir(batchId);
        const dir = staging;
        // Queued until the account's one download slot is ours: "waiting", not "downloading".
        batch = this.set(batch, { state: 'queued', attempts: batch.download.attempts + 1 });
        const verified: VerifiedImage[] = [];
        try {
          const names = new UniqueNames();
          let total: number | undefined;
          const imagesTotal = batch.remote.success_count;
          // Verified and extracted as it arrives: no copy of the archive on disk, and a cut stream
          // resumes from its last whole entry where the gateway honours Range.
          const result = await this.deps.gate.run(
            account,
            () => {
              batch = this.set(batch, { state: 'downloading', source: 'zip' });
              return ingestBatchZip({
                open: async (from) => {
                  // A resume is asked again while the slot is taken: after a stall, the gateway may
                  // not yet have noticed the cut answer gone, and still count it.
                  const stream =
                    from > 0
                      ? await withRetry(retryPolicies.downloadSlot, () => client.zipStream(batchId, from), {
                          speed: this.deps.speedFor(profileId),
                        })
                      : await client.zipStream(batchId, from);
                  if (from === 0) total = stream?.total;
                  return stream?.body;
                },
                targetDir: join(dir, 'images'),
                expectedSuccessCount: imagesTotal,
                nameFor: (customId, index, ext) => names.take(safeName(imageStem(customId, index)), ext),
                scrub: (text) => client.scrub(text),
                verified,
                onProgress: (received, done) =>
                  this.deps.onProgress({
                    batchId,
                    phase: 'downloading',
                    received,
                    total,
                    images: done,
                    imagesTotal,
                  }),
              });
            },
            { speed: this.deps.speedFor(profileId) },
          );
          batch = this.set(batch, { state: 'verifying' });
          images = result.images.map((i) => ({ ...i, file: `images/${i.file}` }));
          errors = result.errors;
          await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(result.manifest, null, 2)}\n`);
          await writeFile(join(dir, 'errors.json'), `${JSON.stringify(result.errors, null, 2)}\n`);
        } catch (err) {
          zipError = diskRefusal(err, root) ?? StudioError.from(err);
          if (this.final(zipError)) throw zipError;
          if (verified.length) {
            // Cut for good, with whole images in hand: the item route fetches only the rest.
            cutImages = verified;
            break;
          }
          await rm(dir, { recursive: true, force: true });
          staging = undefined;
        }
      }

      let items: WireItem[] | undefined;
      if (!images) {
        source = 'items';
        // The fallback downloads: it must not keep reading "verifying" from the ZIP that failed.
        batch = this.set(batch, { state: 'downloading', source: 'items' });
        staging ??= await this.deps.staging.newDir(batchId);
        const into = staging;
        items = await withRequestRetries(this.deps.speedFor(profileId), () => client.items(batchId, 'all'));
        ({ images, errors } = await this.itemRoute.downloadItems(
          batch,
          client,
          account,
          into,
          items,
          cutImages,
        ));
      }
      if (!draft && !items)
        items = await client.items(batchId, 'all').catch((err: unknown) => {
          logCaught('batch items for the record', err);
          return undefined;
        });

      batch = this.set(batch, { state: 'verifying' });
      const file = await buildBatchFile(this.deps, batch, draft, images, errors, items, source, staging!);
      const folder = batchFolderName(batch.remote);
      const published = await publishBatchFolder(root, staging!, folder, file, { replace: again });
      staging = undefined;
      if (!published) {
        // Another studio of the team (or a sync tool) brought the folder while this one downloaded.
        const found = await folderContents(root, folder);
        if (found) return this.adopt(batch, { name: folder, contents: found });
      }
      this.set(batch, {
        state: 'done',
        folder,
        source,
        missing: undefined,
        images: images.length,
        completedAt: Date.now(),
        error: undefined,
        zipError: undefined,
      });
      this.deps.onProgress({
        batchId,
        phase: 'done',
        received: 0,
        images: images.length,
        imagesTotal: images.length,
      });
    } catch (err) {
      const error = diskRefusal(err, root) ?? StudioError.from(err);
      if (staging) await rm(staging, { recursive: true, force: true });
      const current = this.deps.store.get(profileId, batchId) ?? batch;
      if (error.code === 'BATCH_IMAGE_OUTPUT_DELETED') {
        // The gateway deleted the outputs (expiry or a delete elsewhere): whatever is local stays.
        const deleted = this.deps.store.update(profileId, batchId, (b) => ({
          ...b,
          remote: { ...b.remote, status: 'output_deleted' },
        }))!;
        this.set(deleted, { state: 'unavailable', error: error.toView() });
      } else if (error.code === 'BATCH_IMAGE_NOT_FOUND') {
        const gone = this.deps.store.update(profileId, batchId, (b) => ({ ...b, goneOnServer: true }))!;
        this.set(gone, { state: 'unavailable', error: error.toView() });
      } else if (error.code === 'BATCH_IMAGE_NOT_READY') {
        this.set(current, { state: current.download.folder ? 'done' : 'none', error: undefined });
      } else {
        const fellBack = zipError !== undefined && zipError !== error;
        this.set(current, {
          state: 'failed',
          error: error.toView(),
          zipError: fellBack ? zipError!.toView() : undefined,
        });
      }
      this.deps.onProgress({ batchId, phase: 'failed', received: 0 });
    }
  }

  /** Errors no other attempt or route can fix: the outputs are gone, or the batch is. */
  private final(error: StudioError): boolean {
    return [
      'BATCH_IMAGE_OUTPUT_DELETED',
      'BATCH_IMAGE_NOT_FOUND',
      'BATCH_IMAGE_NOT_READY',
      // Fetched one by one, the images would meet the same disk.
      'STUDIO_DISK_FULL',
      'STUDIO_LIBRARY_NOT_WRITABLE',
    ].includes(error.code);
  }

  /**
   * A batch already in the library whose folder lacks some of its images: only those are fetched,
   * item by item, and the folder is published again with everything it held (marks merged) through
   * the same safe replacement as a whole download, so a kill at any moment leaves it restorable.
   */
  private async completeFolder(
    batch: TrackedBatch,
    client: BatchClient,
    account: string,
    root: string,
    folder: string,
    contents: FolderContents,
  ): Promise<void> {
    const { record, missing } = contents;
    if (missing.length > 0) {
      const staging = await this.deps.staging.newDir(batch.id);
      try {
        await stageExisting(root, folder, staging);
        const slot = { batch: this.set(batch, { state: 'downloading' }) };
        const fetched = new Map<string, { mime: string; bytes: number }>();
        for (const image of missing) {
          const part = join(staging, `missing-${fetched.size}.part`);
          const { data, mime } = await this.itemRoute.fetchImage(
            slot,
            client,
            account,
            image.customId,
            image.imageIndex,
            part,
          );
          // Under the name the record gives it: the catalog, marks and collections know it by that.
          await writeFile(join(staging, image.file), data, { flag: 'wx' });
          fetched.set(image.file, { mime, bytes: data.length });
          this.deps.onProgress({
            batchId: batch.id,
            phase: 'items',
            received: 0,
            images: fetched.size,
            imagesTotal: missing.length,
          });
        }
        batch = this.set(slot.batch, { state: 'verifying' });
        const file: BatchJsonInput = {
          ...record,
          images: record.images.map((i) => ({ ...i, ...fetched.get(i.file) })),
        };
        await publishBatchFolder(root, staging, folder, file, { replace: true });
      } catch (err) {
        await rm(staging, { recursive: true, force: true });
        throw err;
      }
    }
    this.set(batch, {
      state: 'done',
      folder,
      images: record.images.length,
      missing: undefined,
      completedAt: Date.now(),
      error: undefined,
      zipError: undefined,
    });
    this.deps.onProgress({
      batchId: batch.id,
      phase: 'done',
      received: 0,
      images: record.images.length,
      imagesTotal: record.images.length,
    });
  }
}
