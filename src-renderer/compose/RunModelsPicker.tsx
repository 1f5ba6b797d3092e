import { useTranslation } from 'react-i18next';
import { RUN_MAX_MODELS } from '../../src-shared/batch-run';
import { useRunModels } from './run-models';

/**
 * Under the toolbar's buttons, a line of its own: the other models the same draft goes to, as one
 * run. None ticked keeps the single-batch submit exactly as it was.
 *
 * While the models are still being asked for, the line is kept, empty: they come after the first
 * screen's own calls, and a line appearing then moved the grid down under a person's first click
 * (29 px at 1280×800, 0.1–0.3 s after Compose took keys; a column's resize handle pressed then
 * missed). Where the profile has one model only, the line goes once that is known.
 */
export function RunModelsPicker({ primary, models }: { primary: string; models: string[] | undefined }) {
  const { t } = useTranslation();
  const { extra, toggle } = useRunModels();
  if (models === undefined)
    return (
      <div className="run-models run-models-pending" aria-hidden="true">
        <span className="run-models-legend">{t('run.alsoOn')}</span>
      </div>
    );
  const others = models.filter((m) => m !== primary);
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
