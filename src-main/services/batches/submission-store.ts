import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { draftSchema } from '../../../src-shared/draft';
import { studioErrorSchema } from '../../../src-shared/studio-error';
import { writeFileAtomicSync } from '../library/atomic-file';

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
  state: z.enum(['sending', 'unknown', 'created', 'failed']),
  batchId: z.string().optional(),
  attempts: z.number().int(),
  error: studioErrorSchema.optional(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Submission = z.infer<typeof submissionSchema>;

export class SubmissionStore {
  constructor(private dir: string) {}

  private file(id: string): string {
    return join(this.dir, `${id.replace(/[^\w-]/g, '_')}.json`);
  }

  put(submission: Submission): Submission {
    writeFileAtomicSync(this.file(submission.id), JSON.stringify(submission));
    return submission;
  }

  get(id: string): Submission | undefined {
    try {
      const parsed = submissionSchema.safeParse(JSON.parse(readFileSync(this.file(id), 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  list(): Submission[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    return names
      .map((n) => this.get(n.slice(0, -'.json'.length)))
      .filter((s): s is Submission => s !== undefined)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  remove(id: string): void {
    rmSync(this.file(id), { force: true });
  }
}
