import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchView } from '../../src-shared/batch-view';
import { BatchCard, BatchProgress } from './BatchCard';
import { useMoney } from './money';

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
  const sum = (pick: (b: BatchView) => number | null) => batches.reduce((s, b) => s + (pick(b) ?? 0), 0);
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
            estimated: sum((b) => b.estimatedCost),
            // Only holds still outstanding: a settled or ended batch's hold went back to the balance.
            held: sum((b) => (b.actualCost === null && !b.terminal ? b.holdAmount : 0)),
            // Nothing settled yet: no actual cost to add up.
            actual: batches.some((b) => b.actualCost !== null) ? sum((b) => b.actualCost) : null,
          }),
        )}
      </p>
      {families.map((family) => (
        <FamilyCards key={family.root.id} family={family} onOpen={onOpen} />
      ))}
    </li>
  );
}
