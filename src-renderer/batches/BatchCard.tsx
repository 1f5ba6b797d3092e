import { useTranslation } from 'react-i18next';
import type { BatchView } from '../../src-shared/batch-view';
import { BatchStateLine } from './BatchState';
import { useMoney } from '../shared/money-format';

export function formatTime(seconds: number | null | undefined, language: string): string {
  if (!seconds) return '—';
  return new Date(seconds * 1000).toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Successes and failures against the item count, as a bar people read at a glance. */
export function BatchProgress({ batch }: { batch: BatchView }) {
  const { t } = useTranslation();
  const total = Math.max(1, batch.itemCount);
  const label = t('batches.progress', {
    success: batch.successCount,
    failed: batch.failCount,
    total: batch.itemCount,
  });
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={batch.itemCount}
      aria-valuenow={batch.successCount + batch.failCount}
    >
      <span className="progress-ok" style={{ width: `${(batch.successCount / total) * 100}%` }} />
      <span className="progress-failed" style={{ width: `${(batch.failCount / total) * 100}%` }} />
    </div>
  );
}

/**
 * One batch as a dense row of the list (two short lines), so a dozen fit on a laptop screen: its name,
 * live state and progress first, then the counts, costs and dates in small print.
 */
export function BatchCard({
  batch,
  onOpen,
  child = false,
}: {
  batch: BatchView;
  onOpen(): void;
  child?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const costs = money.line({
    estimate: batch.estimatedCost,
    hold: batch.holdAmount,
    actual: batch.actualCost,
  });
  const name = batch.taskName || batch.id;
  return (
    <li
      className={`batch-card${child ? ' child' : ''}`}
      data-testid={`batch-${batch.id}`}
      data-status={batch.status}
    >
      <div className="batch-line">
        <h3 className="batch-name" title={name}>
          <a
            href={`#/batches/${encodeURIComponent(batch.id)}`}
            onClick={(e) => {
              e.preventDefault();
              onOpen();
            }}
          >
            {child && <span className="badge">{t('batches.retryOf')}</span>} {name}
            {/* In a run, the rows share the draft's name: the model tells them apart. */}
            {batch.runId && <span className="badge run-model-badge">{batch.model}</span>}
          </a>
        </h3>
        <span className="batch-state">
          <BatchStateLine batch={batch} statusTestId="batch-status" downloadTestId="batch-download" />
        </span>
        <BatchProgress batch={batch} />
      </div>
      <p className="batch-meta muted">
        <span>
          {t('batches.progress', {
            success: batch.successCount,
            failed: batch.failCount,
            total: batch.itemCount,
          })}
        </span>
        <span>
          {t('batches.estimate')} {costs.estimate} · {t('batches.hold')} {costs.hold}
          {batch.terminal && ` ${t('batches.holdReleased')}`} · {t('batches.actual')} {costs.actual}
        </span>
        <span>{t('batches.created', { when: formatTime(batch.createdAt, i18n.language) })}</span>
        {batch.outputsExpireAt && (
          <span>{t('batches.expires', { when: formatTime(batch.outputsExpireAt, i18n.language) })}</span>
        )}
        {batch.origin === 'server' && <span>{t('batches.elsewhere')}</span>}
      </p>
    </li>
  );
}
