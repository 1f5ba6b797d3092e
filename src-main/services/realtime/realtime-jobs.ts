import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import PQueue from 'p-queue';
import type { z } from 'zod';
import type { RealtimeJob, realtimeGenerateSchema } from '../../../src-shared/realtime-view';
import { StudioError } from '../../../src-shared/studio-error';
import type { EventHub } from '../dispatch/event-hub';
import { makeDir, writeFileAtomic, writeFileAtomicSync } from '../storage/atomic-file';
import {
  BATCH_FILE,
  readBatchJson,
  writeBatchJson,
  type BatchJsonInput,
} from '../library/folders/batch-json';
import { sniffImageType, UniqueNames, safeName } from '../storage/file-names';
import type { ProfileService } from '../profiles/profile-service';
import { RealtimeClient, type Tier } from './realtime-client';
import { logCaughtUnlessMissing } from '../log/studio-log';

/** How many realtime generations one profile runs at once; the rest wait, visibly, in its queue. */
export const REALTIME_CONCURRENCY = 2;

interface StoredJob extends RealtimeJob {
  inputFiles: { mime: string; file: string }[];
  resultFile?: string;
}

/**
 * Realtime generations as jobs: queued per profile, run with the native client, kept with their
 * inputs and results as the session's history, and saved on request into the library's Realtime
 * collection, where the review features work as for batches.
 */
export class RealtimeJobs {
  private jobs = new Map<string, StoredJob>();
  private queues = new Map<string, PQueue>();
  private controllers = new Map<string, AbortController>();
  private saving: Promise<unknown> = Promise.resolve();

  constructor(
    private dir: string,
    private profiles: ProfileService,
    private events: EventHub,
    /** The library folder, and what to do once a result is filed there (the catalog reads it). */
    private library: {
      root(): string;
      /** The folder (by name) the result went into. */
      saved(folder: string): Promise<unknown>;
      image(id: string): Promise<{ path: string; mime: string }>;
      /** This install's id: its realtime folders are its own in a library shared with other studios. */
      studioId: string;
    },
    private clientOptions: ConstructorParameters<typeof RealtimeClient>[1] = {},
  ) {
    try {
      for (const job of JSON.parse(readFileSync(join(dir, 'jobs.json'), 'utf8')) as StoredJob[]) {
        // A job cut short by a restart did not finish; it is history now, not a running job.
        if (job.state === 'queued' || job.state === 'running') job.state = 'cancelled';
        this.jobs.set(job.id, job);
      }
    } catch (err) {
      // No history yet.
      logCaughtUnlessMissing('realtime history read', err);
    }
  }

  private persist(): void {
    writeFileAtomicSync(join(this.dir, 'jobs.json'), JSON.stringify([...this.jobs.values()]));
  }

  private view(job: StoredJob): RealtimeJob {
    const { inputFiles: _i, resultFile: _r, ...view } = job;
    return view;
  }

  private update(job: StoredJob, patch: Partial<StoredJob>): void {
    Object.assign(job, patch);
    this.persist();
    this.events.emit('realtime.updated', this.view(job));
  }

  clientFor(profileId: string): RealtimeClient {
    const profile = this.profiles.resolve(profileId);
    if (!profile.gatewayKey)
      throw new StudioError({ code: 'STUDIO_KEY_MISSING', message: 'This profile has no API key.' });
    return new RealtimeClient(
      { baseUrl: profile.baseUrl, key: profile.gatewayKey, knownKeys: () => this.profiles.allKeys() },
      this.clientOptions,
    );
  }

  models(): Promise<string[]> {
    return this.clientFor(this.profiles.active().id).models();
  }

  list(): RealtimeJob[] {
    return [...this.jobs.values()].sort((a, b) => b.createdAt - a.createdAt).map((j) => this.view(j));
  }

  async generate(input: z.output<typeof realtimeGenerateSchema>): Promise<RealtimeJob> {
    const profileId = this.profiles.active().id;
    const id = `rt_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    await makeDir(this.dir);
    const inputFiles: StoredJob['inputFiles'] = [];
    if (input.fromJobId) {
      const parent = this.jobs.get(input.fromJobId);
      if (!parent?.resultFile)
        throw new StudioError({ code: 'STUDIO_NO_RESULT', message: 'That generation has no image to edit.' });
      inputFiles.push({ mime: parent.result!.mime, file: parent.resultFile });
    }
    for (const [i, libraryId] of input.fromLibraryIds.entries()) {
      const source = await this.library.image(libraryId);
      const file = `${id}-lib${i}.${source.mime.split('/')[1]}`;
      await writeFileAtomic(join(this.dir, file), await readFile(source.path));
      inputFiles.push({ mime: source.mime, file });
    }
    for (const [i, raw] of input.inputs.entries()) {
      const data = Buffer.from(raw.dataBase64, 'base64');
      const mime = sniffImageType(data.subarray(0, 16));
      if (!mime)
        throw new StudioError({
          code: 'STUDIO_REFERENCE_UNREADABLE',
          message: `${raw.name} is not a PNG, JPEG or WebP image.`,
        });
      const file = `${id}-in${i}.${mime.split('/')[1]}`;
      await writeFileAtomic(join(this.dir, file), data);
      inputFiles.push({ mime, file });
    }
    const job: StoredJob = {
      id,
      profileId,
      prompt: input.prompt,
      model: input.model,
      aspectRatio: input.aspectRatio,
      imageSize: input.imageSize,
      inputs: inputFiles.length,
      parentJobId: input.fromJobId,
      sourceImageIds: input.fromLibraryIds.length ? input.fromLibraryIds : undefined,
      state: 'queued',
      attempt: 0,
      createdAt: Date.now(),
      inputFiles,
    };
    this.jobs.set(id, job);
    this.update(job, {});
    let queue = this.queues.get(profileId);
    if (!queue) this.queues.set(profileId, (queue = new PQueue({ concurrency: REALTIME_CONCURRENCY })));
    void queue.add(() => this.run(job));
    return this.view(job);
  }

  private async run(job: StoredJob): Promise<void> {
    if (job.state === 'cancelled') return;
    const controller = new AbortController();
    this.controllers.set(job.id, controller);
    this.update(job, { state: 'running' });
    try {
      const images = await Promise.all(
        job.inputFiles.map(async (f) => ({ mime: f.mime, data: await readFile(join(this.dir, f.file)) })),
      );
      const client = new RealtimeClient(
        {
          baseUrl: this.profiles.resolve(job.profileId).baseUrl,
          key: this.profiles.resolve(job.profileId).gatewayKey ?? '',
          knownKeys: () => this.profiles.allKeys(),
        },
        { ...this.clientOptions, onAttempt: (attempt) => this.update(job, { attempt }) },
      );
      const result = await client.generate(
        {
          model: job.model,
          prompt: job.prompt,
          images,
          aspectRatio: job.aspectRatio,
          imageSize: job.imageSize as Tier,
        },
        controller.signal,
      );
      const resultFile = `${job.id}.${result.extension}`;
      await writeFileAtomic(join(this.dir, resultFile), result.image);
      this.update(job, {
        state: 'done',
        resultFile,
        result: {
          mime: result.mime,
          text: result.text,
          modelVersion: result.modelVersion,
          requestId: result.requestId,
          attempts: result.attempts,
        },
        finishedAt: Date.now(),
      });
    } catch (err) {
      const error = StudioError.from(err);
      this.update(job, {
        state: error.code === 'STUDIO_CANCELLED' ? 'cancelled' : 'failed',
        error: error.toView(),
        finishedAt: Date.now(),
      });
    } finally {
      this.controllers.delete(job.id);
    }
  }

  cancel(id: string): RealtimeJob {
    const job = this.find(id);
    if (job.state === 'queued') this.update(job, { state: 'cancelled', finishedAt: Date.now() });
    this.controllers.get(id)?.abort();
    return this.view(job);
  }

  private find(id: string): StoredJob {
    const job = this.jobs.get(id);
    if (!job)
      throw new StudioError({
        code: 'STUDIO_JOB_NOT_FOUND',
        message: 'That generation is no longer in the history.',
      });
    return job;
  }

  /** Where a result or input image is on disk, for the image routes to stream. */
  imageFile(id: string, which: 'result' | 'input', index = 0): { file: string; mime: string } {
    const job = this.find(id);
    const file = which === 'result' ? job.resultFile : job.inputFiles[index]?.file;
    const mime = which === 'result' ? job.result?.mime : job.inputFiles[index]?.mime;
    if (!file || !mime)
      throw new StudioError({ code: 'STUDIO_NO_RESULT', message: 'There is no such image.' });
    return { file: join(this.dir, file), mime };
  }

  /**
   * Files the result under the library's Realtime collection: one folder per day and studio, like
   * a batch folder. Its batch.json is rewritten at each save, so in a library shared with other
   * studios each has its own (`Realtime <day> <studio>`): one writer. Folders of older studios
   * (`Realtime <day>`) are still read as any batch folder, and never written again.
   */
  save(id: string): Promise<string> {
    const run = this.saving.then(() => this.saveNow(id));
    this.saving = run.catch(() => undefined);
    return run;
  }

  private async saveNow(id: string): Promise<string> {
    const job = this.find(id);
    if (!job.resultFile || !job.result)
      throw new StudioError({ code: 'STUDIO_NO_RESULT', message: 'This generation has no image to save.' });
    const day = new Date(job.createdAt).toISOString().slice(0, 10);
    const studio = safeName(this.library.studioId, 80).slice(0, 8);
    const folderName = `Realtime ${day} ${studio}`;
    const folder = join(this.library.root(), folderName);
    await makeDir(join(folder, 'images'));
    const record: BatchJsonInput = existsSync(join(folder, BATCH_FILE))
      ? await readBatchJson(folder)
      : {
          collection: 'realtime',
          batch: {
            id: `realtime-${day}-${studio}`,
            task_name: folderName,
            model: 'realtime',
            created_at: Math.floor(job.createdAt / 1000),
            status: 'completed',
          },
          draft: null,
          images: [],
          failures: [],
        };
    const existing = record.images.find((i) => i.customId === job.id);
    if (existing) return `${folderName}/${existing.file}`;
    const names = new UniqueNames();
    for (const image of record.images)
      names.take(image.file.replace(/^images\//, '').replace(/\.[^.]+$/, ''), '');
    const file = `images/${names.take(safeName(`${job.id}`), job.resultFile.split('.').pop()!)}`;
    // The image first, then the record: the library never lists an image that is not there.
    await writeFileAtomic(join(folder, file), await readFile(join(this.dir, job.resultFile)));
    record.images.push({
      customId: job.id,
      imageIndex: 0,
      file,
      mime: job.result.mime,
      bytes: 0,
      rowIndex: null,
      prompt: job.prompt,
      model: job.model,
      modelVersion: job.result.modelVersion,
      aspectRatio: job.aspectRatio,
      imageSize: job.imageSize,
      parentJobId: job.parentJobId,
      sources: job.sourceImageIds,
    });
    await writeBatchJson(folder, record);
    const savedId = `${folderName}/${file}`;
    this.update(job, { savedId });
    // Answered once the catalog knows the image: the window may open it by this id at once.
    await this.library.saved(folderName);
    return savedId;
  }
}
