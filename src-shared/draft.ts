import { z } from 'zod';
import { promptPartsSchema } from './prompt-parts';

export const REFERENCE_MIMES = ['image/png', 'image/jpeg', 'image/webp'] as const;
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

/** The references a row sends: the shared ones first, then its own, without repeats. */
export function referencesOfItem(
  draft: Pick<Draft, 'sharedReferenceIds'>,
  item: Pick<DraftItem, 'referenceIds'>,
): string[] {
  return [...new Set([...draft.sharedReferenceIds, ...item.referenceIds])];
}

/** The id a row is sent with: its own, or one made from its position. */
export function customIdOf(item: Pick<DraftItem, 'customId'>, index: number): string {
  return item.customId.trim() || `item-${String(index + 1).padStart(3, '0')}`;
}

/** The task ids an item expands to: `id` alone for one output, `id_01`, `id_02`… for more. */
export function expandedIds(customId: string, outputCount: number): string[] {
  if (outputCount <= 1) return [customId];
  return Array.from({ length: outputCount }, (_, n) => `${customId}_${String(n + 1).padStart(2, '0')}`);
}

/**
 * Which draft row and output a gateway task id belongs to. Gateways may or may not suffix a single
 * output, so both `id` and `id_01` find row `id`.
 */
export function rowOfTask(
  draft: Pick<Draft, 'items'>,
  taskId: string,
): { index: number; output: number } | undefined {
  const ids = draft.items.map((item, i) => customIdOf(item, i));
  const exact = ids.indexOf(taskId);
  if (exact >= 0) return { index: exact, output: 0 };
  const match = /^(.*)_(\d{2,})$/.exec(taskId);
  if (!match) return undefined;
  const index = ids.indexOf(match[1]!);
  return index >= 0 ? { index, output: Number(match[2]) - 1 } : undefined;
}
