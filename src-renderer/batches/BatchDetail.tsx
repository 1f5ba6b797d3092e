import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inLibrary } from '../../src-shared/batch-display-state';
import type { BatchItemView, BatchView } from '../../src-shared/batch-view';
import { imageUrl } from '../app/image-url';
import { useNavigation } from '../app/navigation-store';
import { useStudioQuery } from '../app/studio-queries';
import { ErrorNotice, useExplain } from '../shell/ErrorNotice';
import { BatchActions } from './BatchActions';
import { BatchProgress, formatTime } from './BatchCard';
import { BatchStateLine } from './BatchState';
import { DownloadProblem } from './DownloadProblem';
import { PreviewReuse } from './PreviewReuse';
import { useMoney } from '../shared/money-format';

function Preview({ batch, item }: { batch: BatchView; item: BatchItemView }) {
  const { t } = useTranslation();
  // Once in the library, previews come from disk and show at once; before, only on request.
  // In the library by the shared derivation: a failed re-download does not take the folder away.
  const downloaded = inLibrary(batch) && !!item.file;
  const [requested, setWanted] = useState(false);
  const wanted = downloaded || requested;
  const preview = useStudioQuery(
    'batches.preview',
    { id: batch.id, customId: item.customId },
    { enabled: wanted && item.status === 'success', retry: false },
  );
  if (item.status !== 'success') return null;
  if (!wanted) {
    return (
      <button
        type="button"
        className="small"
        onClick={() => setWanted(true)}
        disabled={batch.status !== 'completed'}
      >
        {t('batches.showPreview')}
      </button>
    );
  }
  if (preview.error) return <span className="error-text">{preview.error.code}</span>;
  if (!preview.data) return <span className="thumb-placeholder" aria-label={t('common.loading')} />;
  return (
    <>
      <img
        className="item-preview"
        src={imageUrl(preview.data.path)}
        alt={t('batches.previewOf', { id: item.customId })}
        data-testid={`preview-${item.customId}`}
      />
      <PreviewReuse batchId={batch.id} customId={item.customId} />
    </>
  );
}

const ITEM_FILTERS = ['all', 'success', 'failed', 'pending', 'cancelled'] as const;

export function BatchDetail({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const go = useNavigation((s) => s.go);
  const money = useMoney();
  const explain = useExplain();
  const batch = useStudioQuery('batches.get', { id });
  const items = useStudioQuery('batches.items', { id });
  const [filter, setFilter] = useState<(typeof ITEM_FILTERS)[number]>('all');
  const scroller = useRef<HTMLDivElement>(null);
  const shown = (items.data ?? []).filter((i) => filter === 'all' || i.status === filter);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 96,
    overscan: 6,
  });

  if (batch.error) return <ErrorNotice error={batch.error.toView()} />;
  if (!batch.data) return <p className="muted">{t('common.loading')}</p>;
  const b = batch.data;
  const costs = money.line({ estimate: b.estimatedCost, hold: b.holdAmount, actual: b.actualCost });

  return (
    <section className="batch-detail" aria-labelledby="batch-title">
      <button type="button" className="link-button" onClick={() => go('batches')}>
        ← {t('batches.back')}
      </button>
      <div className="batch-head">
        <h2 id="batch-title">{b.taskName || b.id}</h2>
        <BatchStateLine batch={b} statusTestId="detail-status" downloadTestId="detail-download" />
      </div>
      <p className="muted mono">{b.id}</p>
      <BatchProgress batch={b} />
      <p className="batch-meta muted">
        <span>
          {t('batches.progress', { success: b.successCount, failed: b.failCount, total: b.itemCount })}
        </span>
        <span data-testid="detail-costs">
          {t('batches.estimate')} {costs.estimate} · {t('batches.hold')} {costs.hold}
          {b.terminal && ` ${t('batches.holdReleased')}`} · {t('batches.actual')} {costs.actual}
        </span>
        <span>{t('batches.created', { when: formatTime(b.createdAt, i18n.language) })}</span>
        {b.outputsExpireAt && (
          <span>{t('batches.expires', { when: formatTime(b.outputsExpireAt, i18n.language) })}</span>
        )}
      </p>
      {b.cancelRequested && !b.terminal && <p className="notice">{t('batches.cancelRequested')}</p>}
      {b.goneOnServer && <p className="notice">{t('batches.goneOnServer')}</p>}
      {b.origin === 'server' && <p className="notice">{t('batches.elsewhere')}</p>}
      {b.holdAmount > b.estimatedCost && b.actualCost === null && (
        <p className="muted small" data-testid="hold-help">
          {t('batches.holdHelp')}
        </p>
      )}
      <DownloadProblem download={b.download} />

      <BatchActions batch={b} />

      <div className="section-head">
        <h3>{t('batches.items')}</h3>
        <label className="inline-field">
          <span>{t('batches.itemsFilter')}</span>
          <select
            value={filter}
            onChange={(e) => setFilter(e.target.value as typeof filter)}
            data-testid="items-filter"
          >
            {ITEM_FILTERS.map((f) => (
              <option key={f} value={f}>
                {f === 'all' ? t('batches.all') : t(`status.${f}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {items.error && <ErrorNotice error={items.error.toView()} compact />}
      <div
        className="items-table"
        role="table"
        aria-label={t('batches.items')}
        aria-rowcount={shown.length + 1}
      >
        <div role="row" className="item-row item-head">
          <span role="columnheader">{t('batches.colItem')}</span>
          <span role="columnheader">{t('batches.colStatus')}</span>
          <span role="columnheader">{t('batches.colPrompt')}</span>
          <span role="columnheader">{t('batches.colPreview')}</span>
        </div>
        <div ref={scroller} className="items-body" role="rowgroup">
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const item = shown[v.index]!;
              return (
                <div
                  key={item.customId}
                  role="row"
                  className={`item-row status-${item.status}`}
                  data-testid={`item-${item.customId}`}
                  style={{
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    right: 0,
                    height: v.size,
                    transform: `translateY(${v.start}px)`,
                  }}
                >
                  <span role="cell" className="mono">
                    {item.customId}
                  </span>
                  <span role="cell">{t(`status.${item.status}`)}</span>
                  <span role="cell" className="item-prompt">
                    {item.prompt}
                    {item.error && (
                      <span className="item-error" data-error-code={item.error.code}>
                        <strong>{item.error.code}</strong>: {explain(item.error.code) ?? item.error.message}
                      </span>
                    )}
                  </span>
                  <span role="cell">
                    <Preview batch={b} item={item} />
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </section>
  );
}
