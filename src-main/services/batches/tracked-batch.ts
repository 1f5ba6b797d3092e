import { runIdOf } from '../../../src-shared/batch-run';
import { z } from 'zod';
import { downloadStateSchema, type BatchView } from '../../../src-shared/batch-view';
import { studioErrorSchema } from '../../../src-shared/studio-error-schema';
import { TERMINAL_STATUSES, wireBatchSchema } from '../gateway/batch-wire';

/** Outputs expire about 72 h after settlement on deployed gateways. */
export const OUTPUT_RETENTION_S = 72 * 3600;

/** What the studio keeps about one batch of one profile; survives restarts. */
export const trackedBatchSchema = z.object({
  id: z.string(),
  profileId: z.string(),
  remote: wireBatchSchema,
  origin: z.enum(['studio', 'server']),
  submissionId: z.string().optional(),
  parentBatchId: z.string().nullable().default(null),
  rootBatchId: z.string(),
  /** The run it was sent in (its draft's metadata), for gateways that do not echo metadata back. */
  runId: z.string().optional(),
  /** Real ms of the first time the studio saw it; the poll schedule counts from creation. */
  firstSeenMs: z.number(),
  lastPolledMs: z.number().nullable().default(null),
  pollErrors: z.number().int().default(0),
  pollError: studioErrorSchema.optional(),
  cancelRequested: z.boolean().default(false),
  goneOnServer: z.boolean().default(false),
  hidden: z.boolean().default(false),
  download: downloadStateSchema.default({ state: 'none', attempts: 0 }),
});
export type TrackedBatch = z.infer<typeof trackedBatchSchema>;

export function isTerminal(batch: Pick<TrackedBatch, 'remote' | 'goneOnServer'>): boolean {
  return batch.goneOnServer || TERMINAL_STATUSES.has(batch.remote.status);
}

export function toView(batch: TrackedBatch): BatchView {
  const r = batch.remote;
  const settledAt = r.settled_at ?? null;
  return {
    id: batch.id,
    profileId: batch.profileId,
    taskName: r.task_name,
    model: r.model,
    status: r.status,
    terminal: isTerminal(batch),
    itemCount: r.item_count,
    successCount: r.success_count,
    failCount: r.fail_count,
    estimatedCost: r.estimated_cost,
    holdAmount: r.hold_amount,
    actualCost: r.actual_cost,
    createdAt: r.created_at,
    submittedAt: r.submitted_at ?? null,
    settledAt,
    outputsExpireAt: r.status === 'completed' && settledAt ? settledAt + OUTPUT_RETENTION_S : null,
    parentBatchId: batch.parentBatchId,
    rootBatchId: batch.rootBatchId,
    runId: runIdOf(r.metadata as Record<string, unknown> | undefined) ?? batch.runId ?? null,
    origin: batch.origin,
    hasDraft: batch.submissionId !== undefined,
    cancelRequested: batch.cancelRequested,
    goneOnServer: batch.goneOnServer,
    download: batch.download,
    lastPolledAt: batch.lastPolledMs,
    pollError: batch.pollError,
  };
}
