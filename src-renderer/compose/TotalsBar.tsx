import { useTranslation } from 'react-i18next';
import { GATEWAY_LIMITS, type DraftReport } from '../../src-shared/draft-rules';
import { useNavigation } from '../app/navigation-store';
import { useMoney } from '../batches/money';
import { useAgo } from './time-ago';
import type { DraftSubmission } from './use-draft-submission';

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * The sticky bar under the grid: totals against the limits, what needs fixing, and Submit. What a
 * submit did is said here too, where the user's eyes are when they press it.
 */
export function TotalsBar({
  report,
  submission,
  onGoToInvalid,
}: {
  report: DraftReport | undefined;
  submission: DraftSubmission;
  onGoToInvalid(): void;
}) {
  const { t } = useTranslation();
  const go = useNavigation((s) => s.go);
  const money = useMoney();
  const ago = useAgo();
  const { result, lastSent, submitting } = submission;
  const overLimit = (report?.totals.images ?? 0) > GATEWAY_LIMITS.maxOutputImages;
  return (
    <div className="totals-bar" data-testid="totals-bar">
      <span>{t('compose.totalsRows', { count: report?.totals.rows ?? 0 })}</span>
      <span className={overLimit ? 'over' : undefined} data-testid="totals-images">
        {t('compose.totalsImages', {
          count: report?.totals.images ?? 0,
          limit: GATEWAY_LIMITS.maxOutputImages,
        })}
      </span>
      <span
        className={
          (report?.totals.referenceBytes ?? 0) > GATEWAY_LIMITS.maxReferenceBytesPerJob ? 'over' : undefined
        }
      >
        {t('compose.totalsRefs', {
          size: mib(report?.totals.referenceBytes ?? 0),
          limit: mib(GATEWAY_LIMITS.maxReferenceBytesPerJob),
        })}
      </span>
      {report && report.rows.length > 0 && (
        <button
          type="button"
          className="link-button over"
          title={t('compose.goToInvalid')}
          onClick={onGoToInvalid}
          data-testid="go-to-invalid"
        >
          {t('compose.fixFirst', { count: report.rows.length })}
        </button>
      )}
      {report?.batch
        .filter((b) => !['NO_ITEMS'].includes(b.code))
        .map((b) => (
          <span key={b.code} className="over">
            {t(`compose.issue.${b.code}`, b.params)}
          </span>
        ))}
      {lastSent && !result && (
        <span className="muted" data-testid="sent-before">
          {t('compose.sentAs', { name: lastSent.taskName, ago: ago(lastSent.sentAt) })}
        </span>
      )}
      <button
        type="button"
        className="primary"
        disabled={!report?.ok || submitting}
        onClick={() => void submission.submit()}
        data-testid="submit-batch"
      >
        {submitting ? t('compose.submitting') : t('compose.submit')}
      </button>
      {result?.batch && (
        <div className="notice success-box submit-toast" role="status" data-testid="submit-result">
          {t('compose.submitted', {
            estimate: money(result.batch.estimatedCost),
            hold: money(result.batch.holdAmount),
          })}{' '}
          <button type="button" onClick={() => go('batches', result.batch!.id)}>
            {t('compose.viewBatch')}
          </button>
          <button type="button" className="link-button" onClick={submission.dismiss}>
            {t('common.close')}
          </button>
        </div>
      )}
    </div>
  );
}
