import { useTranslation } from 'react-i18next';
import {
  LOCAL_FILTER_KINDS,
  batchDisplayState,
  matchesStateFilter,
  type BatchDisplayState,
} from '../../src-shared/batch-display-state';
import { BATCH_STATUSES, type BatchView } from '../../src-shared/batch-view';
import { kindLabel } from './BatchState';

export interface Filters {
  status: string;
  name: string;
  downloaded: '' | 'yes' | 'no';
  from: string;
  to: string;
}

export const NO_FILTERS: Filters = { status: '', name: '', downloaded: '', from: '', to: '' };

export function matches(b: BatchView, f: Filters): boolean {
  // Status and "downloaded" read the one display state, as the card and the detail do.
  const state = batchDisplayState(b);
  if (!matchesStateFilter(b, state, f.status)) return false;
  if (f.name && !b.taskName.toLowerCase().includes(f.name.toLowerCase())) return false;
  if (f.downloaded && (state.kind === 'in-library') !== (f.downloaded === 'yes')) return false;
  if (f.from && b.createdAt < Date.parse(`${f.from}T00:00:00`) / 1000) return false;
  if (f.to && b.createdAt >= Date.parse(`${f.to}T00:00:00`) / 1000 + 86400) return false;
  return true;
}

/** The list's filters on one row, compact, so the batches start right beneath them. */
export function BatchFilters({ filters, onChange }: { filters: Filters; onChange(next: Filters): void }) {
  const { t } = useTranslation();
  const set = (key: keyof Filters) => (e: { target: { value: string } }) =>
    onChange({ ...filters, [key]: e.target.value });
  return (
    <div className="filters batch-filters" role="search" aria-label={t('batches.filtersLabel')}>
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
      <label className="inline-field grow">
        <span>{t('batches.filterName')}</span>
        <input type="search" value={filters.name} onChange={set('name')} data-testid="filter-name" />
      </label>
      <label className="inline-field">
        <span>{t('batches.filterDownloaded')}</span>
        <select value={filters.downloaded} onChange={set('downloaded')} data-testid="filter-downloaded">
          <option value="">{t('batches.all')}</option>
          <option value="yes">{t('batches.yes')}</option>
          <option value="no">{t('batches.no')}</option>
        </select>
      </label>
      <label className="inline-field">
        <span>{t('batches.from')}</span>
        <input type="date" value={filters.from} onChange={set('from')} data-testid="filter-from" />
      </label>
      <label className="inline-field">
        <span>{t('batches.to')}</span>
        <input type="date" value={filters.to} onChange={set('to')} data-testid="filter-to" />
      </label>
    </div>
  );
}
