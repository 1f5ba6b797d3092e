import { z } from 'zod';

export const reviewMarkSchema = z.enum(['picked', 'rejected']).nullable();

/** One image of the library, as the gallery lists it. */
export const libraryImageSchema = z.object({
  id: z.string(),
  batchId: z.string(),
  taskName: z.string(),
  model: z.string(),
  customId: z.string(),
  prompt: z.string(),
  createdAt: z.number().int(),
  mime: z.string(),
  bytes: z.number().int(),
  mark: reviewMarkSchema,
  stars: z.number().int().min(0).max(5),
});
export type LibraryImage = z.infer<typeof libraryImageSchema>;

export const libraryQuerySchema = z
  .object({
    search: z.string().max(500).optional(),
    batchId: z.string().optional(),
    model: z.string().optional(),
    from: z.number().optional(),
    to: z.number().optional(),
    review: z.enum(['any', 'picked', 'rejected', 'unrated']).default('any'),
    minStars: z.number().int().min(0).max(5).default(0),
    sort: z.enum(['newest', 'oldest', 'stars', 'prompt']).default('newest'),
  })
  .strict();
export type LibraryQuery = z.input<typeof libraryQuerySchema>;

/** Why a library folder could not be read, or only in part. */
export const folderProblemSchema = z.enum([
  'NO_BATCH_FILE',
  'FILE_NOT_JSON',
  'FILE_NOT_BATCH',
  'FILE_UNREADABLE',
  'IMAGES_MISSING',
  'REVIEW_DAMAGED',
]);

export const libraryResultSchema = z.object({
  root: z.string(),
  total: z.number().int(),
  items: z.array(libraryImageSchema),
  batches: z.array(z.object({ id: z.string(), taskName: z.string(), images: z.number().int() })),
  models: z.array(z.string()),
  /**
   * Folders that could not be read: reported and skipped, never fatal. `reason` is what the screen
   * says, in words, in the user's language; `message` is the same in English for scripts.
   */
  problems: z.array(
    z.object({
      folder: z.string(),
      message: z.string(),
      reason: folderProblemSchema,
      file: z.string().optional(),
      missing: z.number().int().optional(),
      total: z.number().int().optional(),
    }),
  ),
});
export type LibraryResult = z.infer<typeof libraryResultSchema>;

export const libraryDetailSchema = libraryImageSchema.extend({
  folder: z.string(),
  file: z.string(),
  path: z.string(),
  rowIndex: z.number().int().nullable(),
  parameters: z.record(z.string(), z.unknown()),
});
export type LibraryDetail = z.infer<typeof libraryDetailSchema>;
