import { useTranslation } from 'react-i18next';
import { useNavigation } from '../app/navigation-store';
import { useMoney } from '../shared/money-format';
import { useAgo } from '../shared/time-ago';
import type { DraftSubmission } from './use-draft-submission';

/**
 * Submit, at the end of the totals bar: whether this content was sent before, the button, and what a
 * submit did, said here where the user's eyes are when they press it.
 */
export function SubmitBar({
  ready,
  submission,
  batches,
}: {
  ready: boolean;
  submission: DraftSubmission;
  /** How many batches a submit makes: one per model. */
  batches: number;
}) {
  const { t } = useTranslation();
  const go = useNavigation((s) => s.go);
  const money = useMoney();
  const ago = useAgo();
  const { result, run, lastSent, submitting, sendingElsewhere } = submission;
  const made = (run?.results ?? []).flatMap((r) => (r.batch ? [r.batch] : []));
  const sum = (pick: (b: (typeof made)[number]) => number) => made.reduce((s, b) => s + pick(b), 0);
  return (
    <>
      {lastSent && !result && !run && (
        <span className="muted" data-testid="sent-before">
          {sendingElsewhere
            ? t('compose.sendingElsewhere', { name: lastSent.taskName, ago: ago(lastSent.sentAt) })
            : t('compose.sentAs', { name: lastSent.taskName, ago: ago(lastSent.sentAt) })}
        </span>
      )}
      <button
        type="button"
        className="primary"
        disabled={!ready || submitting}
        onClick={() => void submission.submit()}
        data-testid="submit-batch"
      >
        {submitting
          ? t('compose.submitting')
          : batches > 1
            ? t('run.submit', { count: batches })
            : t('compose.submit')}
      </button>
      {result?.batch && (
        <div className="notice success-box submit-toast" role="status" data-testid="submit-result">
          {t(
            'compose.submitted',
            money.line({ estimate: result.batch.estimatedCost, hold: result.batch.holdAmount }),
          )}{' '}
          <button type="button" onClick={() => go('batches', result.batch!.id)}>
            {t('compose.viewBatch')}
          </button>
          <button type="button" className="link-button" onClick={submission.dismiss}>
            {t('common.close')}
          </button>
        </div>
      )}
      {made.length > 0 && (
        <div className="notice success-box submit-toast" role="status" data-testid="submit-result">
          {t('run.submitted', {
            count: made.length,
            ...money.line({ estimate: sum((b) => b.estimatedCost), hold: sum((b) => b.holdAmount) }),
          })}{' '}
          <button type="button" onClick={() => go('batches')}>
            {t('run.viewRun')}
          </button>
          <button type="button" className="link-button" onClick={submission.dismiss}>
            {t('common.close')}
          </button>
        </div>
      )}
    </>
  );
}
