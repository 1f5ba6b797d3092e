import { z } from 'zod';
import { earlierSendSchema } from './send-refusal';
import { studioErrorSchema } from './studio-error-schema';

/** The batch states of the spec, in the order a batch moves through them. */
export const BATCH_STATUSES = [
  'queued',
  'running',
  'processing_results',
  'settling',
  'completed',
  'failed',
  'cancelled',
  'output_deleted',
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export const downloadStateSchema = z.object({
  state: z.enum(['none', 'queued', 'downloading', 'verifying', 'done', 'failed', 'unavailable']),
  /** The batch's folder under the library root, once downloaded. */
  folder: z.string().optional(),
  source: z.enum(['zip', 'items']).optional(),
  images: z.number().int().optional(),
  completedAt: z.number().int().optional(),
  error: studioErrorSchema.optional(),
  /**
   * Why the ZIP was refused, when the item-by-item fallback then failed too (`error` says why):
   * both are shown, since either may be what the user can act on.
   */
  zipError: studioErrorSchema.optional(),
  attempts: z.number().int().default(0),
  /**
   * Images the library folder's own record lists that are no longer on disk (deleted in the file
   * manager): what "Fetch missing images" would bring back. Absent when the folder is whole.
   */
  missing: z.number().int().optional(),
  /** When the studio will try a failed download again (ms since 1970); absent when it will not. */
  nextRetryAt: z.number().int().optional(),
  /**
   * Queued because another studio sharing the library downloads it: this one shows its folder once
   * it appears, and downloads it only if that studio stops.
   */
  elsewhere: z.boolean().optional(),
});
export type DownloadState = z.infer<typeof downloadStateSchema>;

/** A batch as the renderer sees it: the gateway's last known object plus what the studio knows. */
export const batchViewSchema = z.object({
  id: z.string(),
  profileId: z.string(),
  taskName: z.string(),
  model: z.string(),
  status: z.string(),
  terminal: z.boolean(),
  itemCount: z.number().int(),
  successCount: z.number().int(),
  failCount: z.number().int(),
  estimatedCost: z.number(),
  holdAmount: z.number(),
  actualCost: z.number().nullable(),
  /** Unix seconds, as the gateway gives them. */
  createdAt: z.number().int(),
  submittedAt: z.number().int().nullable(),
  settledAt: z.number().int().nullable(),
  /** When the gateway will delete the outputs (about 72 h after settlement); unix seconds. */
  outputsExpireAt: z.number().int().nullable(),
  parentBatchId: z.string().nullable(),
  rootBatchId: z.string(),
  /** The run this batch is one model of (one draft sent to several models), if any. */
  runId: z.string().nullable(),
  /** Submitted from this studio (prompts known) or found on the server (no prompts). */
  origin: z.enum(['studio', 'server']),
  hasDraft: z.boolean(),
  cancelRequested: z.boolean(),
  goneOnServer: z.boolean(),
  download: downloadStateSchema,
  lastPolledAt: z.number().int().nullable(),
  pollError: studioErrorSchema.optional(),
});
export type BatchView = z.infer<typeof batchViewSchema>;

export const batchItemViewSchema = z.object({
  customId: z.string(),
  /** `cancelled`: left unfinished when its batch was cancelled; it will never run. */
  status: z.enum(['pending', 'success', 'failed', 'cancelled']),
  prompt: z.string(),
  rowIndex: z.number().int().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Path of the image inside the batch folder, once downloaded. */
  file: z.string().nullable(),
  mime: z.string().nullable(),
});
export type BatchItemView = z.infer<typeof batchItemViewSchema>;

export const submissionViewSchema = z.object({
  id: z.string(),
  profileId: z.string(),
  taskName: z.string(),
  state: z.enum(['sending', 'unknown', 'created', 'failed']),
  batchId: z.string().optional(),
  attempts: z.number().int(),
  error: studioErrorSchema.optional(),
  createdAt: z.number().int(),
  /** Resent with its key after a restart left its outcome unknown. */
  resumed: z.boolean().optional(),
});
export type SubmissionView = z.infer<typeof submissionViewSchema>;

/** The last time a draft with the same content was sent from the active profile, if ever. */
/** The last send of some content from the active profile, if any: the same record a refusal names. */
export const sentDraftSchema = earlierSendSchema.nullable();
export type SentDraft = z.infer<typeof sentDraftSchema>;

export const costDaySchema = z.object({
  day: z.string(),
  batches: z.number().int(),
  estimated: z.number(),
  held: z.number(),
  actual: z.number(),
});
export const costSummarySchema = z.object({
  profileId: z.string(),
  totals: costDaySchema.omit({ day: true }),
  days: z.array(costDaySchema),
});
export type CostSummary = z.infer<typeof costSummarySchema>;

export const downloadProgressSchema = z.object({
  batchId: z.string(),
  phase: z.enum(['downloading', 'verifying', 'items', 'done', 'failed']),
  received: z.number().int(),
  total: z.number().int().optional(),
  images: z.number().int().optional(),
  imagesTotal: z.number().int().optional(),
});
export type DownloadProgress = z.infer<typeof downloadProgressSchema>;
