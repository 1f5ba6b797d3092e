import type { BatchView, SubmissionView } from '../../src-shared/batch-view';

/**
 * A refusal stops mattering once the same draft (by its task name) was sent again: a newer
 * submission, or a batch made in the second of the refused attempt or later.
 */
function superseded(s: SubmissionView, all: SubmissionView[], batches: BatchView[]): boolean {
  return (
    all.some((o) => o.id !== s.id && o.taskName === s.taskName && o.createdAt > s.createdAt) ||
    batches.some((b) => b.taskName === s.taskName && b.createdAt >= Math.floor(s.createdAt / 1000))
  );
}

/** What the list shows: every submission in flight, and refusals neither dismissed nor sent again. */
export function visibleSubmissions(
  submissions: SubmissionView[],
  batches: BatchView[],
  dismissed: readonly string[],
): SubmissionView[] {
  return submissions.filter(
    (s) =>
      s.state !== 'created' &&
      (s.state !== 'failed' || (!dismissed.includes(s.id) && !superseded(s, submissions, batches))),
  );
}

/**
 * The words for a submission not yet answered. A resend writes `sending` again with one attempt
 * more, so the attempts, not the state alone, tell a first send from "no answer yet, resending".
 */
export function submissionPhaseKey(
  s: Pick<SubmissionView, 'state' | 'attempts' | 'resumed'>,
): 'batches.submissionResumed' | 'batches.submissionResending' | 'batches.submissionSending' {
  if (s.resumed) return 'batches.submissionResumed';
  if (s.state === 'unknown' || s.attempts > 1) return 'batches.submissionResending';
  return 'batches.submissionSending';
}
