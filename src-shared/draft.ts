import { z } from 'zod';
import { promptPartsSchema } from './prompt-parts';
import { REFERENCE_MIMES } from './draft-rows';

// The rows' helpers are in draft-rows.ts, free of zod, for the window's first screen (issue 36).
export { customIdOf, expandedIds, referencesOfItem, rowOfTask } from './draft-rows';

export const referenceMimeSchema = z.enum(REFERENCE_MIMES);

/** A reference image the studio keeps by content: the id is the SHA-256 of its bytes. */
export const referenceImageSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{64}$/),
  name: z.string().max(500),
  mime: referenceMimeSchema,
  bytes: z.number().int().nonnegative(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  /** The library image this reference was taken from ("Use as reference", "Regenerate"): lineage. */
  sourceImageId: z.string().max(2000).optional(),
});
export type ReferenceImage = z.infer<typeof referenceImageSchema>;

export const draftItemSchema = z.object({
  customId: z.string().max(200),
  prompt: z.string().max(100_000),
  outputCount: z.number().int(),
  /** References of this row only; the draft's shared references apply to every row too. */
  referenceIds: z.array(z.string()).max(1000).default([]),
  /** The template and values the prompt was made from, kept into the batch and the library (issue 38). */
  parts: promptPartsSchema.optional(),
});
export type DraftItem = z.infer<typeof draftItemSchema>;

/** Everything a batch is made from, kept so that retries and the library never lose a prompt. */
export const draftSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().max(500),
  model: z.string().max(200),
  items: z.array(draftItemSchema).max(10_000),
  sharedReferenceIds: z.array(z.string()).max(1000).default([]),
  references: z.array(referenceImageSchema).max(5000).default([]),
  responseMime: referenceMimeSchema.default('image/png'),
  metadata: z.record(z.string(), z.string()).optional(),
  updatedAt: z.number().int().optional(),
});
export type Draft = z.infer<typeof draftSchema>;
