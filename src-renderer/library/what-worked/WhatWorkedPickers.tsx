import { useTranslation } from 'react-i18next';
import { WHAT_WORKED_MODEL, type WhatWorkedQuery } from '../../../src-shared/what-worked';

const MAX_BY = 3;
const MARKS_BY = { mine: 'marksMine', everyone: 'marksEveryone', agreement: 'marksAgreement' } as const;

/**
 * "By": the variables of the prompts under the filter, and the model, up to three at once (two give
 * "which model won for which subject"), in the order they were ticked.
 */
export function ByPicker({
  variables,
  by,
  onChange,
}: {
  variables: string[];
  by: string[];
  onChange(by: string[]): void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="ww-by" data-testid="what-worked-by">
      <legend>{t('worked.by')}</legend>
      {variables.map((name) => {
        const on = by.includes(name);
        return (
          <label className="check" key={name}>
            <input
              type="checkbox"
              checked={on}
              // At least one, at most three: the last one cannot be taken off, a fourth not added.
              disabled={on ? by.length === 1 : by.length >= MAX_BY}
              onChange={() => onChange(on ? by.filter((b) => b !== name) : [...by, name])}
              data-testid={`what-worked-by-${name}`}
            />
            {name === WHAT_WORKED_MODEL ? t('worked.model') : name}
          </label>
        );
      })}
      <span className="muted">{t('worked.byHint')}</span>
    </fieldset>
  );
}

/** Whose marks count, offered once the library holds someone else's. */
export function MarksByPicker({
  value,
  onChange,
}: {
  value: NonNullable<WhatWorkedQuery['marksBy']>;
  onChange(value: NonNullable<WhatWorkedQuery['marksBy']>): void;
}) {
  const { t } = useTranslation();
  return (
    <label className="field ww-marks-by">
      <span>{t('worked.marksBy')}</span>
      <select
        value={value}
        onChange={(e) => onChange(e.target.value as keyof typeof MARKS_BY)}
        data-testid="what-worked-marks-by"
      >
        {Object.entries(MARKS_BY).map(([m, label]) => (
          <option key={m} value={m}>
            {t(`worked.${label}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
