import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchView } from '../../src-shared/batch-view';
import { useNavigation } from '../app/navigation-store';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { BatchDetail } from './BatchDetail';
import { BatchFilters, matches, NO_FILTERS, type Filters } from './BatchFilters';
import { useBatchesPrefs } from './batches-prefs';
import { CostsSummary } from './CostsSummary';
import { FamilyCards, groupByRun, RunGroup } from './RunGroup';
import { SpendingChart } from './SpendingChart';
import { SubmissionList, useVisibleSubmissionCount } from './SubmissionList';
import './batches.css';

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
  const chartOpen = useBatchesPrefs((s) => s.chartOpen);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
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

  return (
    <section className="screen batches" aria-labelledby="screen-title">
      {/* The list first: the title, the costs in one line and the refresh share a row; the chart only
          when asked for; the filters on one row. */}
      <div className="section-head batches-head">
        <h1 id="screen-title">{t('batches.title')}</h1>
        <CostsSummary costs={costs.data} />
        <button type="button" disabled={sync.isPending} onClick={() => sync.mutate({})}>
          {sync.isPending ? t('batches.syncing') : t('batches.sync')}
        </button>
      </div>

      {/* Above the list: what was just sent is the first thing to look for here. */}
      <SubmissionList submissions={submissions.data ?? []} batches={batches.data ?? []} />

      {chartOpen && <SpendingChart />}
      <BatchFilters filters={filters} onChange={setFilters} />
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
