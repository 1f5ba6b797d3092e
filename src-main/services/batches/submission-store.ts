import { z } from 'zod';
import { draftSchema } from '../../../src-shared/draft';
import { studioErrorSchema } from '../../../src-shared/studio-error-schema';
import { JsonFolderStore } from '../storage/json-folder-store';

/**
 * A submission is written before its request leaves: the draft as sent and its Idempotency-Key
 * (the submission id). After a crash, a submission still `sending` is sent again with the same
 * key, so the gateway returns the batch it may already have created instead of a second one.
 */
export const submissionSchema = z.object({
  id: z.string(),
  profileId: z.string(),
  draft: draftSchema,
  parentBatchId: z.string().optional(),
  /** The batch whose failed items this submission retries: a retry is weighed against that batch's retries. */
  retryOf: z.string().optional(),
  /** What the draft would buy (draftFingerprint): sending the same content again is asked about first. */
  fingerprint: z.string().optional(),
  state: z.enum(['sending', 'unknown', 'created', 'failed']),
  batchId: z.string().optional(),
  attempts: z.number().int(),
  error: studioErrorSchema.optional(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  /** Sent again with its key by a later session: a kill or a quit left its outcome unknown. */
  resumedAt: z.number().int().optional(),
});
export type Submission = z.infer<typeof submissionSchema>;

export class SubmissionStore {
  private files: JsonFolderStore<typeof submissionSchema>;
  /**
   * Every submission, read from disk once: the send guard consults them on every paid call, and
   * main is the only writer of this folder (the data-folder lock sees to it).
   */
  private cache?: Map<string, Submission>;

  /** `onChange` hears every write: each phase change reaches the pages as it happens. */
  constructor(
    dir: string,
    private onChange: (submission: Submission) => void = () => undefined,
  ) {
    this.files = new JsonFolderStore(dir, submissionSchema);
  }

  private all(): Map<string, Submission> {
    this.cache ??= new Map(this.files.list().map((s) => [s.id, s]));
    return this.cache;
  }

  /** On disk (atomically, durably) before it is in memory: what the guard saw is what a restart sees. */
  put(submission: Submission): Submission {
    this.files.put(submission.id, submission);
    this.all().set(submission.id, submission);
    this.onChange(submission);
    return submission;
  }

  get(id: string): Submission | undefined {
    return this.all().get(id);
  }

  /** Oldest first: pending submissions are resent in the order they were made. */
  list(): Submission[] {
    return [...this.all().values()].sort((a, b) => a.createdAt - b.createdAt);
  }

  remove(id: string): void {
    this.files.remove(id);
    this.all().delete(id);
  }
}
