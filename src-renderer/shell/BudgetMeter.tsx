import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from '../app/navigation-store';
import { useStudioQuery } from '../app/studio-queries';
import { useMoney } from '../shared/money-format';
import { localTimeZone } from '../../src-shared/money';
import './budget.css';

/** Past this share of the budget the bar turns to a warning colour. */
const NEAR = 0.8;

/**
 * This month's spending on the active profile against its monthly budget, as main counts it; shown
 * only when the profile has a budget. A click opens Batches, where the chart is.
 */
export function BudgetMeter() {
  const { t } = useTranslation();
  const money = useMoney();
  const go = useNavigation((s) => s.go);
  const timeZone = useMemo(() => localTimeZone(), []);
  const status = useStudioQuery('batches.budget', { timeZone });
  const data = status.data;
  if (!data || data.budget === null) return null;
  const share = data.budget > 0 ? data.spent / data.budget : 1;
  const over = data.spent > data.budget;
  const level = over ? 'over' : share >= NEAR ? 'near' : 'ok';
  return (
    <button
      type="button"
      className={`budget-meter ghost ${level}`}
      title={t('spending.meterTitle')}
      onClick={() => go('batches')}
      data-testid="budget-meter"
      data-level={level}
    >
      <span className="budget-meter-text">
        {t('spending.meter', { spent: money(data.spent), budget: money(data.budget) })}
        {over ? ` · ${t('spending.over')}` : ''}
      </span>
      <span className="budget-meter-bar" aria-hidden="true">
        <span
          className="budget-meter-fill"
          style={{ width: `${Math.min(100, share * 100)}%`, display: 'block' }}
        />
      </span>
    </button>
  );
}
