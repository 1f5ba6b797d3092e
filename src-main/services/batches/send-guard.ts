import { RUN_METADATA_KEY, runIdOf } from '../../../src-shared/batch-run';
import type { BatchView, SentDraft, SubmissionView } from '../../../src-shared/batch-view';
import { rowOfTask, type Draft } from '../../../src-shared/draft';
import { draftFingerprint } from '../../../src-shared/draft-fingerprint';
import type { BudgetQuestion, EarlierSend, SendConfirmation } from '../../../src-shared/send-refusal';
import { SEND_REFUSALS } from '../../../src-shared/send-refusal-codes';
import type { BudgetCheck } from '../../../src-shared/spending-view';
import { StudioError } from '../../../src-shared/studio-error';
import type { BatchClient } from '../gateway/batch-client';
import type { BatchStore } from './batch-store';
import { checkDraft, type BatchSubmitter } from './batch-submitter';
import type { Submission, SubmissionStore } from './submission-store';
import { toView } from './tracked-batch';

/** What one paid call asks for: the user's confirmations and the zone their budget's month is in. */
export interface SendTerms {
  confirm?: SendConfirmation;
  timeZone?: string;
}

export type SubmitResult = { submission: SubmissionView; batch?: BatchView };
export type RunResult = { runId: string; results: SubmitResult[] };

export interface SendGuardDeps {
  submissions: SubmissionStore;
  submitter: BatchSubmitter;
  store: BatchStore;
  activeProfileId(): string;
  clientFor(profileId: string): BatchClient;
  /**
   * Would these parts take the profile's month past its budget? `pending`: sends reserved but not
   * yet answered, whose money is not in any batch yet and counts as spent.
   */
  budget(
    profileId: string,
    query: { timeZone: string; parts: { model: string; images: number }[] },
    pending: { model: string; images: number }[],
  ): BudgetCheck;
}

/** One batch to be bought: its draft, its fingerprint, and where it comes from. */
interface Order {
  draft: Draft;
  fingerprint: string;
  parentBatchId?: string;
  /** A retry of this batch's failed items. */
  retryOf?: string;
}

const OPEN: ReadonlySet<Submission['state']> = new Set(['sending', 'unknown']);

const imagesOf = (draft: Draft) => draft.items.reduce((sum, item) => sum + Math.max(0, item.outputCount), 0);

/**
 * The one gate every call that can create a paid batch goes through: submit, a run on several
 * models, a retry of failed items, from any window or the local API. Per profile and per content
 * (the draft's fingerprint, which includes the model):
 * - content being sent, or whose outcome is unknown, is never sent a second time;
 * - content already sent is sent again only when the call names that submission as confirmed;
 * - a send past the monthly budget (or with no estimate to tell) goes only when confirmed.
 * Anything else is refused with a code and what the question needs (StudioError.earlier/.budget).
 *
 * Concurrent calls take turns because the decision and the reservation (the submission written to
 * disk in state `sending`) are one synchronous step: no other call runs between them, so the second
 * of two identical calls always finds the first one's submission. The network send comes after.
 */
export class SendGuard {
  constructor(private deps: SendGuardDeps) {}

  async submit(draft: Draft, terms: SendTerms & { parentBatchId?: string } = {}): Promise<SubmitResult> {
    const profileId = this.deps.activeProfileId();
    const order: Order = { draft, fingerprint: draftFingerprint(draft), parentBatchId: terms.parentBatchId };
    const [submission] = this.decideAndReserve(profileId, [order], terms);
    return this.outcome(profileId, await this.deps.submitter.send(submission!));
  }

  /**
   * One draft on several models, one batch each. The run's id comes from the window, once per click:
   * the same run sent again (a replayed click, an answer lost on the way) creates nothing new, and a
   * model whose outcome was left unknown is resent with its own key. Every model is checked and
   * decided before any is sent: a run is never left half sent by a refusal.
   */
  async submitRun(runId: string, draft: Draft, models: string[], terms: SendTerms = {}): Promise<RunResult> {
    const profileId = this.deps.activeProfileId();
    const unique = [...new Set(models)];
    // Every model's draft is checked before any is sent, a model of this run already sent included.
    for (const model of unique) checkDraft({ ...draft, model });
    const ofRun = (model: string) =>
      this.deps.submissions
        .list()
        .find(
          (s) => s.profileId === profileId && runIdOf(s.draft.metadata) === runId && s.draft.model === model,
        );
    const fresh = unique.filter((model) => !ofRun(model));
    const orders = fresh.map((model) => {
      const modelDraft = { ...draft, model, metadata: { ...draft.metadata, [RUN_METADATA_KEY]: runId } };
      return { draft: modelDraft, fingerprint: draftFingerprint(modelDraft) };
    });
    const reserved = orders.length ? this.decideAndReserve(profileId, orders, terms) : [];
    // Each model's batch is its own submission with its own key; they go out side by side.
    const sent = await Promise.all(
      unique.map((model) => {
        const own = reserved.find((s) => s.draft.model === model) ?? ofRun(model)!;
        // A definite answer already came for this run's model: it is reported, not resent.
        return OPEN.has(own.state) ? this.deps.submitter.send(own) : own;
      }),
    );
    return { runId, results: sent.map((s) => this.view(profileId, s)) };
  }

  /**
   * A new batch of the failed items only, from the parent's saved draft: the same prompts and
   * reference images, and for each row just as many outputs as failed. Linked to the family's root.
   * At most one retry of a given failed set, unless the user confirms another.
   */
  async retryFailed(id: string, terms: SendTerms = {}): Promise<SubmitResult> {
    const profileId = this.deps.activeProfileId();
    const batch = this.deps.store.get(profileId, id);
    if (!batch)
      throw new StudioError({
        code: 'STUDIO_BATCH_NOT_FOUND',
        message: `The studio does not know batch ${id}.`,
      });
    const draft = batch.submissionId ? this.deps.submissions.get(batch.submissionId)?.draft : undefined;
    if (!draft) {
      throw new StudioError({
        code: 'STUDIO_NO_DRAFT',
        message: 'This batch was created elsewhere; the studio does not have its prompts and references.',
      });
    }
    const failed = await this.deps.clientFor(profileId).items(id, 'failed');
    const counts = new Map<number, number>();
    for (const item of failed) {
      const row = rowOfTask(draft, item.custom_id);
      if (row) counts.set(row.index, (counts.get(row.index) ?? 0) + 1);
    }
    if (counts.size === 0)
      throw new StudioError({
        code: 'STUDIO_NOTHING_TO_RETRY',
        message: 'No failed item of this batch can be matched to its draft.',
      });
    const items = [...counts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, count]) => ({ ...draft.items[index]!, outputCount: count }));
    const used = new Set([...draft.sharedReferenceIds, ...items.flatMap((i) => i.referenceIds)]);
    const retry: Draft = {
      ...draft,
      id: `${draft.id}-retry-${Date.now()}`,
      name: `${draft.name.replace(/ \(retry( \d+)?\)$/, '')} (retry)`,
      items,
      references: draft.references.filter((r) => used.has(r.id)),
      updatedAt: Date.now(),
    };
    const order: Order = {
      draft: retry,
      fingerprint: draftFingerprint(retry),
      parentBatchId: batch.rootBatchId,
      retryOf: id,
    };
    const [submission] = this.decideAndReserve(profileId, [order], terms);
    return this.outcome(profileId, await this.deps.submitter.send(submission!));
  }

  /**
   * The newest submission of the active profile with this content, sent or still being sent: what
   * Compose shows beside Submit, and what a refusal names. A failed submission bought nothing, and
   * a batch the user removed from the list is no reason to ask.
   */
  lastSent(fingerprint: string): SentDraft {
    return this.earlier(this.deps.activeProfileId(), { fingerprint }) ?? null;
  }

  /** The active profile's submissions still without a batch: sending, unknown or refused. */
  submissionsList(): SubmissionView[] {
    const profileId = this.deps.activeProfileId();
    return this.deps.submissions
      .list()
      .filter((s) => s.profileId === profileId && s.state !== 'created')
      .map(submissionView);
  }

  /**
   * The turn: every order is weighed, and only if all pass are they reserved, in this same
   * synchronous step. Throws the refusal otherwise, and nothing is written.
   */
  private decideAndReserve(profileId: string, orders: Order[], terms: SendTerms): Submission[] {
    const confirmed = new Set(terms.confirm?.resendOf ?? []);
    const earlier = orders.flatMap((o) => {
      const e = this.earlier(profileId, o);
      return e ? [e] : [];
    });
    const busy = earlier.filter((e) => OPEN.has(e.state));
    if (busy.length)
      throw new StudioError({
        code: SEND_REFUSALS.inProgress,
        message: `The same content is being sent as “${busy[0]!.taskName}”; the studio waits for the gateway's answer and never sends it twice.`,
        earlier: busy,
      });
    const unconfirmed = earlier.filter((e) => !confirmed.has(e.submissionId));
    if (unconfirmed.length)
      throw new StudioError({
        code: SEND_REFUSALS.sentBefore,
        message: `The same content was sent as “${unconfirmed[0]!.taskName}” (batch ${unconfirmed[0]!.batchId ?? '–'}, ${new Date(unconfirmed[0]!.sentAt).toISOString()}); it is sent again only when you confirm.`,
        earlier: unconfirmed,
      });
    const question = this.budgetQuestion(profileId, orders, terms.timeZone);
    if (question && !terms.confirm?.overBudget)
      throw new StudioError({
        code: SEND_REFUSALS.budget,
        message:
          question.verdict === 'crosses'
            ? `This send would take the month's spending past the budget of ${question.budget}; it goes only when you confirm.`
            : `There is no estimate yet for ${question.unknownModels.join(', ')}; with a budget set, the send goes only when you confirm.`,
        budget: question,
      });
    return orders.map((o) =>
      this.deps.submitter.reserve(profileId, o.draft, { parentBatchId: o.parentBatchId, retryOf: o.retryOf }),
    );
  }

  /**
   * The newest live submission of this content on this profile. A retry is weighed against the
   * retries of the same batch once sent (its parent holds the same prompts by design), but against
   * everything while anything with its content is still being sent.
   */
  private earlier(profileId: string, order: Pick<Order, 'fingerprint' | 'retryOf'>): EarlierSend | undefined {
    const matches = this.deps.submissions
      .list()
      .filter(
        (s) =>
          s.profileId === profileId &&
          s.state !== 'failed' &&
          (s.fingerprint ?? draftFingerprint(s.draft)) === order.fingerprint &&
          (OPEN.has(s.state) || order.retryOf === undefined || s.retryOf === order.retryOf),
      );
    // One still in flight outranks any newer answered one: it is what must not be sent twice.
    const match = matches.filter((s) => OPEN.has(s.state)).at(-1) ?? matches.at(-1);
    if (!match || match.state === 'failed') return undefined;
    const batch = match.batchId ? this.deps.store.get(profileId, match.batchId) : undefined;
    if (batch?.hidden) return undefined;
    return {
      submissionId: match.id,
      state: match.state,
      ...(match.batchId ? { batchId: match.batchId } : {}),
      taskName: batch?.remote.task_name ?? match.draft.name,
      model: match.draft.model,
      sentAt: match.createdAt,
    };
  }

  /** The budget question these orders raise, if any: in-flight sends count as already spent. */
  private budgetQuestion(profileId: string, orders: Order[], timeZone?: string): BudgetQuestion | undefined {
    const pending = this.deps.submissions
      .list()
      .filter((s) => s.profileId === profileId && OPEN.has(s.state) && !s.batchId)
      .map((s) => ({ model: s.draft.model, images: imagesOf(s.draft) }));
    const check = this.deps.budget(
      profileId,
      {
        timeZone: timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
        parts: orders.map((o) => ({ model: o.draft.model, images: imagesOf(o.draft) })),
      },
      pending,
    );
    if ((check.verdict !== 'crosses' && check.verdict !== 'unknown') || check.status.budget === null)
      return undefined;
    return {
      verdict: check.verdict,
      estimate: check.estimate,
      spent: check.status.spent,
      budget: check.status.budget,
      unknownModels: check.unknownModels,
    };
  }

  private outcome(profileId: string, submission: Submission): SubmitResult {
    if (submission.state === 'failed' && submission.error) throw StudioError.from(submission.error);
    return this.view(profileId, submission);
  }

  private view(profileId: string, submission: Submission): SubmitResult {
    const batch = submission.batchId ? this.deps.store.get(profileId, submission.batchId) : undefined;
    return { submission: submissionView(submission), batch: batch ? toView(batch) : undefined };
  }
}

export function submissionView(s: Submission): SubmissionView {
  return {
    id: s.id,
    profileId: s.profileId,
    taskName: s.draft.name,
    state: s.state,
    batchId: s.batchId,
    attempts: s.attempts,
    error: s.error,
    createdAt: s.createdAt,
    ...(s.resumedAt !== undefined ? { resumed: true } : {}),
  };
}
