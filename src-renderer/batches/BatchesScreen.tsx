import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LOCAL_FILTER_KINDS,
  batchDisplayState,
  matchesStateFilter,
  type BatchDisplayState,
} from '../../src-shared/batch-display-state';
import { BATCH_STATUSES, type BatchView } from '../../src-shared/batch-view';
import { useNavigation } from '../app/navigation-store';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { kindLabel } from './BatchState';
import { BatchDetail } from './BatchDetail';
import { useMoney } from './money';
import { FamilyCards, groupByRun, RunGroup } from './RunGroup';
import { SpendingChart } from './SpendingChart';
import { SubmissionList, useVisibleSubmissionCount } from './SubmissionList';
import './batches.css';

interface Filters {
  status: string;
  name: string;
  downloaded: '' | 'yes' | 'no';
  from: string;
  to: string;
}

function matches(b: BatchView, f: Filters): boolean {
  // Status and "downloaded" read the one display state, as the card and the detail do.
  const state = batchDisplayState(b);
  if (!matchesStateFilter(b, state, f.status)) return false;
  if (f.name && !b.taskName.toLowerCase().includes(f.name.toLowerCase())) return false;
  if (f.downloaded && (state.kind === 'in-library') !== (f.downloaded === 'yes')) return false;
  if (f.from && b.createdAt < Date.parse(`${f.from}T00:00:00`) / 1000) return false;
  if (f.to && b.createdAt >= Date.parse(`${f.to}T00:00:00`) / 1000 + 86400) return false;
  return true;
}

/** Roots with their retries beneath them; a retry whose root is filtered out stands on its own. */
function families(list: BatchView[]): { root: BatchView; children: BatchView[] }[] {
  const ids = new Set(list.map((b) => b.id));
  const roots = list.filter((b) => b.rootBatchId === b.id || !ids.has(b.rootBatchId));
  return roots.map((root) => ({
    root,
    children: list
      .filter((b) => b !== root && b.rootBatchId === root.id && b.id !== root.id)
      .sort((a, b) => a.createdAt - b.createdAt),
  }));
}

export function BatchesScreen() {
  const { t } = useTranslation();
  const { param, go } = useNavigation();
  const batches = useStudioQuery('batches.list');
  const costs = useStudioQuery('batches.costs');
  const submissions = useStudioQuery('batches.submissions');
  const money = useMoney();
  const [filters, setFilters] = useState<Filters>({ status: '', name: '', downloaded: '', from: '', to: '' });
  // Sync asks the gateway for batches this studio has not seen; the list is fetched again after it.
  const sync = useStudioMutation('batches.sync', { invalidates: ['batches.list'] });
  const shownSubmissions = useVisibleSubmissionCount(submissions.data ?? [], batches.data ?? []);

  if (param) {
    return (
      <section className="screen batches" aria-labelledby="screen-title">
        <h1 id="screen-title" className="sr-only">
          {t('batches.title')}
        </h1>
        <BatchDetail id={param} />
      </section>
    );
  }

  const list = (batches.data ?? []).filter((b) => matches(b, filters));
  const set = (key: keyof Filters) => (e: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [key]: e.target.value }));

  return (
    <section className="screen batches" aria-labelledby="screen-title">
      <div className="section-head">
        <h1 id="screen-title">{t('batches.title')}</h1>
        <button type="button" disabled={sync.isPending} onClick={() => sync.mutate({})}>
          {sync.isPending ? t('batches.syncing') : t('batches.sync')}
        </button>
      </div>

      {/* Above the totals: what was just sent is the first thing to look for here. */}
      <SubmissionList submissions={submissions.data ?? []} batches={batches.data ?? []} />

      {costs.data && (
        <div className="notice" data-testid="costs">
          <p>
            <strong>{t('batches.costsTitle')}:</strong>{' '}
            {t('batches.totalLine', {
              count: costs.data.totals.batches,
              ...money.line({
                estimated: costs.data.totals.estimated,
                held: costs.data.totals.held,
                actual: costs.data.totals.actual,
              }),
            })}
          </p>
          <p className="muted small" data-testid="costs-help">
            {t('batches.costsHelp')} {t('batches.holdHelp')}
          </p>
        </div>
      )}

      <SpendingChart />

      <div className="filters" role="search" aria-label={t('batches.filterName')}>
        <label className="inline-field">
          <span>{t('batches.filterStatus')}</span>
          <select value={filters.status} onChange={set('status')} data-testid="filter-status">
            <option value="">{t('batches.all')}</option>
            {BATCH_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
            {LOCAL_FILTER_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {kindLabel(kind as Exclude<BatchDisplayState['kind'], 'server'>, t)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t('batches.filterName')}</span>
          <input value={filters.name} onChange={set('name')} data-testid="filter-name" />
        </label>
        <label className="inline-field">
          <span>{t('batches.filterDownloaded')}</span>
          <select value={filters.downloaded} onChange={set('downloaded')}>
            <option value="">{t('batches.all')}</option>
            <option value="yes">{t('batches.yes')}</option>
            <option value="no">{t('batches.no')}</option>
          </select>
        </label>
        <label className="inline-field">
          <span>{t('batches.from')}</span>
          <input type="date" value={filters.from} onChange={set('from')} />
        </label>
        <label className="inline-field">
          <span>{t('batches.to')}</span>
          <input type="date" value={filters.to} onChange={set('to')} />
        </label>
      </div>
      {sync.error && <ErrorNotice error={sync.error.toView()} />}
      {batches.error && <ErrorNotice error={batches.error.toView()} />}

      {batches.isPending && <p className="muted">{t('batches.loading')}</p>}
      {batches.data && batches.data.length === 0 && shownSubmissions === 0 && (
        <p className="empty-state">{t('batches.empty')}</p>
      )}
      {batches.data && batches.data.length > 0 && list.length === 0 && (
        <p className="empty-state">{t('batches.noMatch')}</p>
      )}
      <ul className="batch-list" aria-label={t('batches.listLabel')}>
        {groupByRun(families(list)).map((entry) =>
          'families' in entry ? (
            <RunGroup key={entry.run} families={entry.families} onOpen={(id) => go('batches', id)} />
          ) : (
            <li key={entry.family.root.id} className="family">
              <FamilyCards family={entry.family} onOpen={(id) => go('batches', id)} />
            </li>
          ),
        )}
      </ul>
    </section>
  );
}
