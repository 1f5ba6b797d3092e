import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CostSummary } from '../../src-shared/batch-view';
import { Dismissible } from '../shell/Dismissible';
import { useBatchesPrefs } from './batches-prefs';
import { useMoney } from '../shared/money-format';

/**
 * The profile's costs in one line, so the list starts high on the screen. What the figures mean waits
 * behind `?`, and the spending chart behind a toggle whose state is remembered.
 */
export function CostsSummary({ costs }: { costs: CostSummary | undefined }) {
  const { t } = useTranslation();
  const id = useId();
  const money = useMoney();
  const chartOpen = useBatchesPrefs((s) => s.chartOpen);
  const toggleChart = useBatchesPrefs((s) => s.toggleChart);
  const [helpOpen, setHelpOpen] = useState(false);
  const helpButton = useRef<HTMLButtonElement>(null);

  return (
    <Dismissible
      className="costs-summary"
      open={helpOpen}
      onDismiss={(how) => {
        setHelpOpen(false);
        // After Escape the focus goes back to `?`; a click elsewhere has put it where it wanted.
        if (how === 'escape') helpButton.current?.focus();
      }}
    >
      <p className="costs-line" data-testid="costs">
        <strong>{t('batches.costsTitle')}:</strong>{' '}
        {costs &&
          t('batches.totalLine', {
            count: costs.totals.batches,
            ...money.line({
              estimated: costs.totals.estimated,
              held: costs.totals.held,
              actual: costs.totals.actual,
            }),
          })}
      </p>
      <button
        type="button"
        ref={helpButton}
        className="ghost small costs-help-toggle"
        aria-label={t('batches.costsExplain')}
        title={t('batches.costsExplain')}
        aria-expanded={helpOpen}
        aria-controls={`${id}-help`}
        onClick={() => setHelpOpen((open) => !open)}
        data-testid="costs-help-toggle"
      >
        ?
      </button>
      <button
        type="button"
        className="ghost small"
        aria-expanded={chartOpen}
        onClick={toggleChart}
        data-testid="spending-toggle"
      >
        {chartOpen ? t('batches.chartHide') : t('batches.chartShow')}
      </button>
      {/* Laid over the list rather than pushing it down: it is read, then put away. */}
      <div id={`${id}-help`} className="costs-help card" role="note" hidden={!helpOpen}>
        <p className="small" data-testid="costs-help">
          {t('batches.costsHelp')} {t('batches.holdHelp')}
        </p>
      </div>
    </Dismissible>
  );
}
