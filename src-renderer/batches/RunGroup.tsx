import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchView } from '../../src-shared/batch-view';
import { sumMoney } from '../../src-shared/money';
import { BatchCard, BatchProgress } from './BatchCard';
import { useMoney } from '../shared/money-format';

interface Family {
  root: BatchView;
  children: BatchView[];
}

/** One entry of the list: a batch family on its own, or the families of one run together. */
type ListEntry = { run?: undefined; family: Family } | { run: string; families: Family[] };

/** Families in list order, those of one run gathered where the run's first one stands. */
export function groupByRun(families: Family[]): ListEntry[] {
  const entries: ListEntry[] = [];
  const runs = new Map<string, Family[]>();
  for (const family of families) {
    const run = family.root.runId;
    if (!run) {
      entries.push({ family });
      continue;
    }
    const group = runs.get(run);
    if (group) group.push(family);
    else {
      const fresh = [family];
      runs.set(run, fresh);
      entries.push({ run, families: fresh });
    }
  }
  return entries;
}

/** A family: its root with its retries beneath it. */
export function FamilyCards({ family, onOpen }: { family: Family; onOpen(id: string): void }) {
  return (
    <ul>
      <BatchCard batch={family.root} onOpen={() => onOpen(family.root.id)} />
      {family.children.map((child) => (
        <BatchCard key={child.id} batch={child} child onOpen={() => onOpen(child.id)} />
      ))}
    </ul>
  );
}

/**
 * A run: one draft sent to several models. The header names it, lists its models with each one's
 * progress and estimate, and adds up the costs; beneath it every batch is its own card, opened as
 * any other.
 */
export function RunGroup({ families, onOpen }: { families: Family[]; onOpen(id: string): void }) {
  const { t } = useTranslation();
  const id = useId();
  const money = useMoney();
  const batches = families.map((f) => f.root);
  // The run's figures by the same rules as main's spending: a cancelled or failed batch's estimate
  // was never charged and is left out, and only holds still outstanding count.
  const total = sumMoney(batches);
  const models = batches.map((b) => b.model);
  return (
    <li className="family run-group card" aria-labelledby={`${id}-title`} data-testid="run-group">
      <div className="run-head">
        <h2 id={`${id}-title`}>{t('run.groupTitle', { name: batches[0]?.taskName || batches[0]?.id })}</h2>
        <span className="muted">
          {t('run.groupModels', { count: models.length, models: models.join(', ') })}
        </span>
      </div>
      <ul className="run-models-progress">
        {batches.map((b) => (
          <li key={b.id} data-testid="run-model-progress" data-model={b.model}>
            <span>
              {t('run.groupModel', {
                model: b.model,
                done: b.successCount + b.failCount,
                total: b.itemCount,
                estimate: money(b.estimatedCost),
              })}
            </span>
            <BatchProgress batch={b} />
          </li>
        ))}
      </ul>
      <p className="muted small" data-testid="run-total">
        {t(
          'run.groupTotal',
          money.line({
            estimated: total.estimated,
            held: total.held,
            // Nothing settled yet: no actual cost to add up.
            actual: total.settled ? total.actual : null,
          }),
        )}
      </p>
      {families.map((family) => (
        <FamilyCards key={family.root.id} family={family} onOpen={onOpen} />
      ))}
    </li>
  );
}
