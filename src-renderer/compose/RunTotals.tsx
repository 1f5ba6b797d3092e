import { useTranslation } from 'react-i18next';
import { useStudioQuery } from '../app/studio-queries';
import { useMoney } from '../shared/money-format';
import { localTimeZone } from '../../src-shared/money';

/**
 * One model's share of a run: its images and its estimate. The estimate is main's own (the
 * per-image figure of this profile's latest batch on the model, as the budget check uses), never a
 * guess; a model not sent from this profile yet has none until the gateway estimates it.
 */
function useModelEstimate(model: string, images: number) {
  const check = useStudioQuery(
    'batches.budgetCheck',
    { timeZone: localTimeZone(), parts: [{ model, images }] },
    { enabled: images > 0, staleTime: 30_000 },
  );
  return check.data?.estimate ?? null;
}

function ModelTotal({ model, images }: { model: string; images: number }) {
  const { t } = useTranslation();
  const money = useMoney();
  const estimate = useModelEstimate(model, images);
  return (
    <span className="run-total" data-testid="run-model-total" data-model={model}>
      {t('run.modelLine', {
        model,
        images,
        estimate:
          estimate === null ? t('run.noEstimate') : t('run.estimateAbout', { amount: money(estimate) }),
      })}
    </span>
  );
}

/** The run's total: every model's images, and the estimate of all of them where main knows one. */
function RunTotal({ models, images }: { models: readonly string[]; images: number }) {
  const { t } = useTranslation();
  const money = useMoney();
  const check = useStudioQuery(
    'batches.budgetCheck',
    { timeZone: localTimeZone(), parts: models.map((model) => ({ model, images })) },
    { enabled: images > 0, staleTime: 30_000 },
  );
  const estimate = check.data?.estimate ?? null;
  const partial = (check.data?.unknownModels.length ?? 0) > 0;
  return (
    <strong className="run-total" data-testid="run-total">
      {t('run.totalLine', {
        batches: models.length,
        images: images * models.length,
        estimate:
          estimate === null || partial
            ? t('run.noEstimate')
            : t('run.estimateAbout', { amount: money(estimate) }),
      })}
    </strong>
  );
}

/** In the totals bar, for a run on several models: images and estimate per model, and in total. */
export function RunTotals({ models, images }: { models: readonly string[]; images: number }) {
  if (models.length < 2) return null;
  return (
    <span className="run-totals" data-testid="run-totals">
      {models.map((m) => (
        <ModelTotal key={m} model={m} images={images} />
      ))}
      <RunTotal models={models} images={images} />
    </span>
  );
}
