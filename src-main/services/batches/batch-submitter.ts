import { randomUUID } from 'node:crypto';
import { customIdOf, referencesOfItem, type Draft } from '../../../src-shared/draft';
import { draftFingerprint } from '../../../src-shared/draft-fingerprint';
import { validateDraft } from '../../../src-shared/draft-rules';
import { StudioError } from '../../../src-shared/studio-error';
import type { BatchClient } from '../gateway/batch-client';
import type { CreateBatchBody, WireBatch } from '../gateway/batch-wire';
import type { ReferenceStore } from '../references/reference-store';
import { retryPolicies, withRetry } from '../gateway/retry-policy';
import { outcomeUnknown } from '../gateway/outcome-unknown';
import type { Submission, SubmissionStore } from './submission-store';

/** Always named: a gateway that fills in the time would make a resend a different body. */
export function taskNameOf(draft: Draft): string {
  return (
    draft.name.trim() ||
    `Batch ${new Date(draft.updatedAt ?? Date.now()).toISOString().slice(0, 16).replace('T', ' ')}`
  );
}

/** The create body, built the same way every time from the same draft: a resend is byte-for-byte equal. */
export async function buildCreateBody(
  draft: Draft,
  references: ReferenceStore,
  parentBatchId?: string,
): Promise<CreateBatchBody> {
  const catalog = new Map(draft.references.map((r) => [r.id, r]));
  const encoded = new Map<string, string>();
  const encode = async (id: string) => {
    let data = encoded.get(id);
    if (data === undefined) {
      const ref = catalog.get(id);
      if (!ref)
        throw new StudioError({
          code: 'STUDIO_REFERENCE_MISSING',
          message: `A row uses a reference image that is not in the draft.`,
        });
      data = (await references.read(ref)).toString('base64');
      encoded.set(id, data);
    }
    return { mime_type: catalog.get(id)!.mime, data };
  };
  const items: CreateBatchBody['items'] = [];
  for (const [index, item] of draft.items.entries()) {
    const refs = referencesOfItem(draft, item);
    items.push({
      custom_id: customIdOf(item, index),
      prompt: item.prompt,
      output_count: item.outputCount,
      ...(refs.length ? { reference_images: await Promise.all(refs.map(encode)) } : {}),
    });
  }
  return {
    model: draft.model,
    task_name: taskNameOf(draft),
    items,
    ...(draft.responseMime !== 'image/png' ? { response_mime_type: draft.responseMime } : {}),
    ...(draft.metadata && Object.keys(draft.metadata).length ? { metadata: draft.metadata } : {}),
    ...(parentBatchId ? { parent_batch_id: parentBatchId } : {}),
  };
}

/** Throws when a draft breaks the gateway's rules for its model, naming how many rows and the first rule. */
export function checkDraft(draft: Draft): void {
  const report = validateDraft(draft);
  if (report.ok) return;
  const first = report.batch[0] ?? report.rows[0]?.issues[0];
  throw new StudioError({
    code: 'STUDIO_DRAFT_INVALID',
    message: `The draft breaks the gateway's rules for ${draft.model} (${report.rows.length} rows to fix${first ? `, first: ${first.code}` : ''}).`,
  });
}

export interface SubmitterDeps {
  submissions: SubmissionStore;
  references: ReferenceStore;
  clientFor(profileId: string): BatchClient;
  /** Records the created batch before the submission is marked created. */
  onCreated(submission: Submission, batch: WireBatch): void;
  /** How much faster than real time the profile's gateway runs (the sandbox); divides the waits. */
  speedFor?(profileId: string): number;
}

/**
 * Sends drafts as batches, exactly once. The submission is on disk before the request leaves;
 * an unknown outcome is resent with the same key, a definite error ends the submission, and the
 * next attempt starts a new one with a new key.
 */
export class BatchSubmitter {
  private inFlight = new Map<string, Promise<Submission>>();

  constructor(private deps: SubmitterDeps) {}

  /**
   * Checks a draft and puts its submission on disk, state `sending`, without sending it: the send
   * guard decides and reserves in one synchronous step, so no other call can come between.
   */
  reserve(
    profileId: string,
    draft: Draft,
    origin: { parentBatchId?: string; retryOf?: string } = {},
  ): Submission {
    checkDraft(draft);
    // A missing reference fails now, before anything is stored or sent.
    const missing = draft.references.find((r) => !this.deps.references.has(r));
    if (missing) {
      throw new StudioError({
        code: 'STUDIO_REFERENCE_MISSING',
        message: `The reference image ${missing.name} is no longer on this computer.`,
      });
    }
    const now = Date.now();
    return this.deps.submissions.put({
      id: randomUUID(),
      profileId,
      draft: { ...draft, name: taskNameOf(draft), updatedAt: draft.updatedAt ?? now },
      ...(origin.parentBatchId ? { parentBatchId: origin.parentBatchId } : {}),
      ...(origin.retryOf ? { retryOf: origin.retryOf } : {}),
      fingerprint: draftFingerprint(draft),
      state: 'sending',
      attempts: 0,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Sends again every submission whose outcome a crash or a network failure left unknown. */
  async resumePending(): Promise<Submission[]> {
    const pending = this.deps.submissions
      .list()
      .filter((s) => s.state === 'sending' || s.state === 'unknown')
      // Marked before the resend, so the page says it resumes with its key rather than anew.
      .map((s) => this.deps.submissions.put({ ...s, state: 'unknown', resumedAt: Date.now() }));
    return Promise.all(pending.map((s) => this.send(s)));
  }

  send(submission: Submission): Promise<Submission> {
    const running = this.inFlight.get(submission.id);
    if (running) return running;
    const promise = this.sendLoop(submission).finally(() => this.inFlight.delete(submission.id));
    this.inFlight.set(submission.id, promise);
    return promise;
  }

  private async sendLoop(start: Submission): Promise<Submission> {
    let submission = start;
    let client: BatchClient;
    let body: CreateBatchBody;
    try {
      client = this.deps.clientFor(submission.profileId);
      body = await buildCreateBody(submission.draft, this.deps.references, submission.parentBatchId);
    } catch (err) {
      // Nothing left the studio (no key, a reference gone): the submission ends, and the content is
      // free to be sent again once that is mended.
      const error = StudioError.from(err);
      return this.deps.submissions.put({
        ...submission,
        state: 'failed',
        error: error.toView(),
        updatedAt: Date.now(),
      });
    }
    try {
      // Every send of this submission carries its id as the Idempotency-Key: a resend after an
      // unknown outcome can never make a second batch.
      return await withRetry(
        retryPolicies.unknownOutcome,
        async () => {
          submission = this.deps.submissions.put({
            ...submission,
            state: 'sending',
            attempts: submission.attempts + 1,
            updatedAt: Date.now(),
          });
          try {
            const batch = await client.create(body, submission.id);
            this.deps.onCreated(submission, batch);
            return this.deps.submissions.put({
              ...submission,
              state: 'created',
              batchId: batch.id,
              error: undefined,
              updatedAt: Date.now(),
            });
          } catch (err) {
            const error = StudioError.from(err);
            // On disk before the wait: a crash now resends with this key at the next start.
            if (outcomeUnknown(error))
              submission = this.deps.submissions.put({
                ...submission,
                state: 'unknown',
                error: error.toView(),
                updatedAt: Date.now(),
              });
            throw error;
          }
        },
        { speed: this.deps.speedFor?.(submission.profileId) },
      );
    } catch (err) {
      const error = StudioError.from(err);
      // Still unknown after every resend: kept, and sent again with the same key on the next start.
      if (outcomeUnknown(error)) return submission;
      // A definite answer: nothing was made and the key is spent; a new attempt is a new submission.
      return this.deps.submissions.put({
        ...submission,
        state: 'failed',
        error: error.toView(),
        updatedAt: Date.now(),
      });
    }
  }
}
