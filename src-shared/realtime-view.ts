import { z } from 'zod';
import { studioErrorSchema } from './studio-error-schema';

export const realtimeJobSchema = z.object({
  id: z.string(),
  profileId: z.string(),
  prompt: z.string(),
  model: z.string(),
  aspectRatio: z.string().optional(),
  imageSize: z.enum(['1K', '2K', '4K']),
  inputs: z.number().int(),
  parentJobId: z.string().optional(),
  /** Library images used as inputs ("Vary"), by library id: lineage. */
  sourceImageIds: z.array(z.string()).optional(),
  state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  attempt: z.number().int(),
  error: studioErrorSchema.optional(),
  result: z
    .object({
      mime: z.string(),
      text: z.string(),
      modelVersion: z.string().optional(),
      requestId: z.string(),
      attempts: z.number().int(),
    })
    .optional(),
  savedId: z.string().optional(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().optional(),
});
export type RealtimeJob = z.infer<typeof realtimeJobSchema>;

export const realtimeGenerateSchema = z
  .object({
    prompt: z.string().trim().min(1).max(32_000),
    model: z.string().min(1),
    aspectRatio: z.string().optional(),
    imageSize: z.enum(['1K', '2K', '4K']).default('1K'),
    inputs: z
      .array(z.object({ name: z.string().max(500), dataBase64: z.string().max(40 * 1024 * 1024) }))
      .max(14)
      .default([]),
    /** Edit this: the image a finished job made becomes the input of the new instruction. */
    fromJobId: z.string().optional(),
    /** Vary: library images as inputs, read by the main process (no bytes in JSON). */
    fromLibraryIds: z.array(z.string()).max(14).default([]),
  })
  .strict();
