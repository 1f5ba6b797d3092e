import type { TFunction } from 'i18next';
import type { Draft } from '../../src-shared/draft';
import type { MethodInput, MethodOutput } from '../../src-shared/studio-api';
import { confirmAction } from '../shell/confirm-store';
import { userTimeZone } from './use-spending';

/**
 * Before a submit: asks main whether this draft's estimate would take the month past the profile's
 * budget, and if so (or if the estimate cannot be known yet) asks the user, so that crossing the
 * budget takes a second click. Answers whether to go on.
 */
export async function confirmWithinBudget(
  call: (
    method: 'batches.budgetCheck',
    input: MethodInput<'batches.budgetCheck'>,
  ) => Promise<MethodOutput<'batches.budgetCheck'>>,
  draft: Draft,
  t: TFunction,
  money: (amount: number) => string,
  /** A run's models, one part each: the whole run is weighed against the budget at once. */
  models: readonly string[] = [draft.model],
): Promise<boolean> {
  const images = draft.items.reduce((sum, item) => sum + Math.max(0, item.outputCount), 0);
  const check = await call('batches.budgetCheck', {
    timeZone: userTimeZone(),
    parts: models.map((model) => ({ model, images })),
  })
    // No answer: the submit itself will say what is wrong; a budget check never blocks it alone.
    .catch(() => undefined);
  if (!check || check.status.budget === null) return true;
  const { spent, budget } = check.status;
  if (check.verdict === 'crosses')
    return confirmAction(
      t('spending.warnCrosses', {
        estimate: money(check.estimate ?? 0),
        total: money(spent + (check.estimate ?? 0)),
        budget: money(budget),
        spent: money(spent),
      }),
    );
  if (check.verdict === 'unknown')
    return confirmAction(
      t('spending.warnUnknown', {
        models: check.unknownModels.join(', '),
        spent: money(spent),
        budget: money(budget),
      }),
    );
  return true;
}
