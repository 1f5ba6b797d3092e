import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../../storage/atomic-file';

/**
 * The `batch.json` format, once: the readable record of a batch folder, written last into it by a
 * download (batch-folder.ts) or a realtime save (realtime-jobs.ts), and read by the catalog, the
 * recipe of an image and a download that completes a folder. Every writer and reader goes through
 * this schema. It is lenient where older studios wrote less (defaults), and keeps fields it does not
 * know (`loose`), so a file written by a newer version is read and written again without losing them.
 */
export const BATCH_FILE = 'batch.json';
export const BATCH_FORMAT = 'batch-image-studio.batch/1';

/** Metadata this version cannot read costs the run's grouping, never the folder. */
const metadataSchema = z.record(z.string(), z.unknown()).nullable().optional().catch(null);

/** One image of the folder, `images/…`, with the row and prompt it was made from. */
export const batchJsonImageSchema = z
  .object({
    customId: z.string(),
    imageIndex: z.number().default(0),
    file: z.string(),
    mime: z.string().default('image/png'),
    bytes: z.number().default(0),
    rowIndex: z.number().nullable().default(null),
    prompt: z.string().default(''),
    /** Realtime results: the library images used as inputs. */
    sources: z.array(z.string()).optional(),
    /** Realtime results: each image has its own model and settings. */
    model: z.string().optional(),
    modelVersion: z.string().optional(),
    aspectRatio: z.string().optional(),
    imageSize: z.string().optional(),
    parentJobId: z.string().optional(),
  })
  .loose();

/** An item the gateway answered with an error instead of an image. */
const batchJsonFailureSchema = z
  .object({
    customId: z.string(),
    code: z.string(),
    message: z.string(),
    rowIndex: z.number().nullable().default(null),
    prompt: z.string().default(''),
  })
  .loose();

export const batchJsonSchema = z
  .object({
    format: z.string().default(BATCH_FORMAT),
    /** `realtime`: a day's realtime results of one studio, not one batch of the gateway. */
    collection: z.string().optional(),
    /** The gateway's batch as last polled (its own field names). */
    batch: z
      .object({
        id: z.string(),
        task_name: z.string().default(''),
        model: z.string().default(''),
        created_at: z.number().default(0),
        metadata: metadataSchema,
      })
      .loose(),
    profile: z.object({ id: z.string(), name: z.string() }).loose().optional(),
    lineage: z.object({ rootBatchId: z.string(), parentBatchId: z.string().nullable() }).loose().optional(),
    /** The draft it was sent from, when this studio sent it: rows, prompts and references. */
    draft: z
      .object({
        model: z.string().optional(),
        name: z.string().optional(),
        metadata: metadataSchema,
        items: z.array(z.object({ referenceIds: z.array(z.string()).default([]) }).loose()).default([]),
        sharedReferenceIds: z.array(z.string()).default([]),
        references: z
          .array(
            z
              .object({ id: z.string(), name: z.string().optional(), sourceImageId: z.string().optional() })
              .loose(),
          )
          .default([]),
      })
      .loose()
      .nullable()
      .optional()
      // The draft only adds lineage, a model name and a recipe's references: a draft this version
      // cannot read costs those, never the folder's images.
      .catch(null),
    /** The draft's reference images, copied into `references/`. */
    references: z
      .array(
        z
          .object({
            id: z.string(),
            name: z.string().default(''),
            mime: z.string().default(''),
            file: z.string(),
          })
          .loose(),
      )
      .default([]),
    images: z.array(batchJsonImageSchema),
    failures: z.array(batchJsonFailureSchema).default([]),
    download: z
      .object({ source: z.enum(['zip', 'items']), downloadedAt: z.string() })
      .loose()
      .optional(),
  })
  .loose();

/** A batch.json as read: defaults filled in. */
export type BatchJson = z.output<typeof batchJsonSchema>;
/** A batch.json as a writer gives it (writeBatchJson sets the format). */
export type BatchJsonInput = z.input<typeof batchJsonSchema>;

/** Reads a folder's batch.json; throws a SyntaxError or a ZodError for a file that is not one. */
export async function readBatchJson(dir: string): Promise<BatchJson> {
  return batchJsonSchema.parse(JSON.parse(await readFile(join(dir, BATCH_FILE), 'utf8')));
}

/**
 * Writes a folder's batch.json in this format, atomically and durably. The schema's input type is
 * what a writer may give; it is not parsed again here, so a download is never refused at its last
 * step for a field the reader would have defaulted anyway.
 */
export async function writeBatchJson(dir: string, file: BatchJsonInput): Promise<void> {
  await writeJsonAtomic(join(dir, BATCH_FILE), { ...file, format: BATCH_FORMAT });
}
