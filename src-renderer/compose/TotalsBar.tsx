import { useTranslation } from 'react-i18next';
import { GATEWAY_LIMITS, type DraftReport } from '../../src-shared/draft-rules';
import { RunTotals } from './RunTotals';
import { SubmitBar } from './SubmitBar';
import type { DraftSubmission } from './use-draft-submission';

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The sticky bar under the grid: totals against the limits, what needs fixing, and Submit. */
export function TotalsBar({
  report,
  submission,
  models,
  onGoToInvalid,
}: {
  report: DraftReport | undefined;
  submission: DraftSubmission;
  /** Every model the draft goes to; more than one is a run, counted per model and in total. */
  models: readonly string[];
  onGoToInvalid(): void;
}) {
  const { t } = useTranslation();
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
      <RunTotals models={models} images={report?.totals.images ?? 0} />
      <SubmitBar ready={!!report?.ok} submission={submission} batches={models.length} />
    </div>
  );
}
