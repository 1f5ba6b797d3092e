import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../shell/Modal';
import { TemplateField } from './TemplateField';
import {
  expandTemplateRows,
  templateCount,
  templateVariables,
  type TemplateMode,
} from '../../src-shared/prompt-template';
import type { PromptParts } from '../../src-shared/prompt-parts';

/**
 * Prompts from a template with variables, expanded as every combination or side by side; each
 * keeps its template and values as its parts, for "What worked" to trace picks back to them.
 */
export function TemplateDialog({
  onAdd,
  onClose,
}: {
  onAdd(prompts: string[], parts: PromptParts[]): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [template, setTemplate] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [mode, setMode] = useState<TemplateMode>('cross');
  const names = templateVariables(template);
  const lists = Object.fromEntries(
    names.map((n) => [
      n,
      (values[n] ?? '')
        .split('\n')
        .map((v) => v.trim())
        .filter(Boolean),
    ]),
  );
  const count = template.trim() ? templateCount(lists, names, mode) : 0;

  return (
    <Modal title={t('templater.title')} onClose={onClose}>
      <TemplateField
        label={t('templater.template')}
        help={t('templater.templateHelp')}
        value={template}
        onChange={setTemplate}
        placeholder="A {subject} in {style} style"
        testId="template-input"
      />
      <div className="field-row">
        {names.map((name) => (
          <label className="field" key={name}>
            <span>{t('templater.valuesFor', { name })}</span>
            <textarea
              rows={5}
              value={values[name] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
              data-testid={`template-values-${name}`}
            />
          </label>
        ))}
      </div>
      <fieldset className="field">
        <legend>{t('templater.mode')}</legend>
        {(['cross', 'zip'] as const).map((m) => (
          <label className="check" key={m}>
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === m}
              onChange={() => setMode(m)}
              data-testid={`template-mode-${m}`}
            />
            {t(`templater.${m}`)}
          </label>
        ))}
      </fieldset>
      <p className="muted" data-testid="template-count" role="status">
        {t('templater.count', { count })}
      </p>
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={count === 0 || count > 10_000}
          onClick={() => {
            const rows = expandTemplateRows(template, lists, mode);
            const parts = rows.map((r): PromptParts => ({ template, values: r.values, source: 'template' }));
            onAdd(
              rows.map((r) => r.prompt),
              parts,
            );
          }}
          data-testid="template-add"
        >
          {t('templater.add', { count })}
        </button>
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </Modal>
  );
}
