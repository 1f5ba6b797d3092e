import { z } from 'zod';

/**
 * The batch API's objects as they arrive. Loose on purpose: unknown extra fields pass through,
 * `success` and `succeeded` both mean success, and numbers that some builds send as strings are
 * read as numbers.
 */
const num = z.coerce.number();
const int = z.coerce.number().int();
// Money and counts are never below zero: a negative cost from a broken gateway would be summed into
// the spending figures that the budget question is asked against, and let a send slip past it.
const money = num.nonnegative();
const count = int.nonnegative();
// null first: a coercing number would read null as 0, and an unsettled batch would look settled at 0.
const nullableMoney = z
  .union([z.null(), money])
  .optional()
  .transform((v) => v ?? null);
const nullableInt = z.union([z.null(), int]).optional();

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set([
  'completed',
  'failed',
  'cancelled',
  'output_deleted',
]);

export const wireBatchSchema = z
  .object({
    id: z.string().min(1),
    object: z.string().optional(),
    task_name: z.string().default(''),
    status: z.string(),
    model: z.string().default(''),
    item_count: count.default(0),
    success_count: count.default(0),
    fail_count: count.default(0),
    estimated_cost: money.default(0),
    hold_amount: money.default(0),
    actual_cost: nullableMoney,
    created_at: int.default(0),
    submitted_at: nullableInt,
    settled_at: nullableInt,
    parent_batch_id: z.string().nullable().optional(),
  })
  .passthrough();
export type WireBatch = z.infer<typeof wireBatchSchema>;

export const wireItemSchema = z
  .object({
    custom_id: z.string(),
    status: z.string().transform((s) => (s === 'succeeded' ? 'success' : s)),
    prompt_preview: z.string().nullable().optional(),
    mime_type: z.string().nullable().optional(),
    file_extension: z.string().nullable().optional(),
    image_count: int.default(0),
    error: z
      .object({
        code: z.string().default('UNKNOWN'),
        message: z.string().default(''),
        source: z.string().optional(),
      })
      .passthrough()
      .nullable()
      .optional(),
  })
  .passthrough();
export type WireItem = z.infer<typeof wireItemSchema>;

export const wireListSchema = <T extends z.ZodTypeAny>(entry: T) =>
  z
    .object({ object: z.string().optional(), data: z.array(entry), has_more: z.boolean().optional() })
    .passthrough();

export const wireModelSchema = z.object({ id: z.string(), object: z.string().optional() }).passthrough();

/** The request body the studio sends to create a batch. */
export interface CreateBatchBody {
  model: string;
  task_name: string;
  items: {
    custom_id: string;
    prompt: string;
    output_count: number;
    reference_images?: { mime_type: string; data: string }[];
  }[];
  response_mime_type?: string;
  metadata?: Record<string, string>;
  parent_batch_id?: string;
}

/** The results manifest inside a batch ZIP (gateway-notes.md). */
export const zipManifestSchema = z
  .object({
    batch_id: z.string().optional(),
    model: z.string().optional(),
    item_count: int.optional(),
    success_count: int,
    fail_count: int.optional(),
    files: z.array(
      z
        .object({
          custom_id: z.string(),
          filename: z.string(),
          mime_type: z.string().optional(),
          image_index: int.default(0),
        })
        .passthrough(),
    ),
  })
  .passthrough();
export type ZipManifest = z.infer<typeof zipManifestSchema>;

export const zipErrorsSchema = z.array(
  z
    .object({ custom_id: z.string(), code: z.string().default('UNKNOWN'), message: z.string().default('') })
    .passthrough(),
);
