import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { BatchView, SubmissionView } from '../../src-shared/batch-view';
import { ErrorNotice } from '../shell/ErrorNotice';
import { submissionPhaseKey, visibleSubmissions } from './submission-phase';

/**
 * Refusals the user dismissed. The contract has no call to forget a refused submission in main, so
 * the window remembers the dismissal itself (kept across reloads); main keeps the record.
 */
const useDismissed = create<{ ids: string[]; dismiss(id: string, known: string[]): void }>()(
  persist(
    (set) => ({
      ids: [],
      // Only ids main still lists are kept, so the remembered set never outgrows the list.
      dismiss: (id, known) => set((s) => ({ ids: [...s.ids.filter((x) => known.includes(x)), id] })),
    }),
    { name: 'studio.dismissedSubmissions', partialize: (s) => ({ ids: s.ids }) },
  ),
);

/**
 * Submissions main knows and that are not batches yet: in flight (sending, resending, resumed) or
 * refused by the gateway, with the reason and a way to dismiss it.
 */
export function SubmissionList({
  submissions,
  batches,
}: {
  submissions: SubmissionView[];
  batches: BatchView[];
}) {
  const { t } = useTranslation();
  const id = useId();
  const dismissed = useDismissed((s) => s.ids);
  const dismiss = useDismissed((s) => s.dismiss);
  const shown = visibleSubmissions(submissions, batches, dismissed);
  if (shown.length === 0) return null;
  return (
    <div className="card" aria-labelledby={`${id}-subs`}>
      <h2 id={`${id}-subs`}>{t('batches.submissionsTitle')}</h2>
      <ul className="submission-list">
        {shown.map((s) => (
          <li key={s.id} data-testid="submission" data-state={s.state}>
            {s.taskName} —{' '}
            {s.state === 'failed' ? (
              <>
                {t('batches.submissionRefused')}{' '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() =>
                    dismiss(
                      s.id,
                      submissions.map((x) => x.id),
                    )
                  }
                >
                  {t('batches.submissionDismiss')}
                </button>
                {s.error && <ErrorNotice error={s.error} compact />}
              </>
            ) : (
              t(submissionPhaseKey(s))
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Whether any submission is shown, so the screen does not also say "No batches yet". */
export function useVisibleSubmissionCount(submissions: SubmissionView[], batches: BatchView[]): number {
  const dismissed = useDismissed((s) => s.ids);
  return visibleSubmissions(submissions, batches, dismissed).length;
}
