import { useTranslation } from 'react-i18next';
import { RUN_MAX_MODELS } from '../../src-shared/batch-run';
import { useRunModels } from './run-models';

/**
 * Beside the model select: the other models the same draft goes to, as one run. None ticked keeps
 * the single-batch submit exactly as it was.
 */
export function RunModelsPicker({ primary, models }: { primary: string; models: string[] | undefined }) {
  const { t } = useTranslation();
  const { extra, toggle } = useRunModels();
  const others = (models ?? []).filter((m) => m !== primary);
  if (!others.length) return null;
  const chosen = extra.filter((m) => m !== primary);
  return (
    <fieldset className="run-models" data-testid="run-models" title={t('run.alsoOnHelp')}>
      <legend>{t('run.alsoOn')}</legend>
      {others.map((m) => (
        <label key={m} className="run-model">
          <input
            type="checkbox"
            checked={chosen.includes(m)}
            disabled={!chosen.includes(m) && chosen.length >= RUN_MAX_MODELS - 1}
            onChange={() => toggle(m)}
            data-testid={`run-model-${m}`}
          />
          {m}
        </label>
      ))}
    </fieldset>
  );
}
