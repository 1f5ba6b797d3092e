import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import type { PromptParts } from '../../src-shared/prompt-parts';
import { matchTemplate } from '../../src-shared/prompt-parts-suggest';
import { fillTemplate, templateVariables } from '../../src-shared/prompt-template';
import { Modal } from '../shell/Modal';
import { TemplateField } from './TemplateField';
import { useSuggestedParts } from './use-suggested-parts';

/** Rows shown in the preview; the count says how many more there are. */
const PREVIEW_ROWS = 12;
/** What a variable's name may hold (src-shared/prompt-template.ts). */
const NOT_NAME = /[^\p{L}\p{N}_-]/gu;

/** A row's parts still make its prompt: not edited by hand since a template made it. */
function partsHold(item: Draft['items'][number]): boolean {
  const parts = item.parts;
  return (
    !!parts && (parts.template === undefined || fillTemplate(parts.template, parts.values) === item.prompt)
  );
}

/**
 * "Find parts": for rows typed or pasted by hand, the words that vary between them offered as a
 * template with variables (src-shared/prompt-parts-suggest.ts). The person accepts it, renames a
 * part, or changes the template itself; each row is then read again against it, and the rows that
 * fit keep their parts. Rows whose parts still hold (from a template) are left as they are.
 */
export function FindPartsDialog({
  draft,
  onApply,
  onClose,
}: {
  draft: Draft;
  onApply(parts: Map<number, PromptParts>): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const rows = useMemo(
    () =>
      draft.items
        .map((item, index) => ({ index, prompt: item.prompt }))
        .filter((r, i) => !partsHold(draft.items[i]!) && r.prompt.trim()),
    [draft.items],
  );
  const prompts = useMemo(() => rows.map((r) => r.prompt), [rows]);
  const nameOf = useCallback((n: number) => t('findParts.defaultName', { n: n + 1 }), [t]);
  const suggestion = useSuggestedParts(prompts, nameOf);
  const suggested = suggestion.parts;
  // The suggestion until the person changes it.
  const [edited, setTemplate] = useState<string>();
  const template = edited ?? suggested?.template ?? '';
  const names = templateVariables(template);
  const matched = useMemo(
    () => rows.map((r) => ({ ...r, values: template ? matchTemplate(template, r.prompt) : null })),
    [rows, template],
  );
  const fitting = matched.filter((r) => r.values && Object.keys(r.values).length);

  /** Renames a part everywhere in the template. */
  function rename(from: string, to: string) {
    const clean = to.replace(NOT_NAME, '');
    if (!clean || (clean !== from && names.includes(clean))) return;
    setTemplate(template.split(`{${from}}`).join(`{${clean}}`));
  }

  function apply() {
    const source = template === suggested?.template ? 'suggested' : 'edited';
    onApply(
      new Map(fitting.map((r): [number, PromptParts] => [r.index, { template, values: r.values!, source }])),
    );
  }

  return (
    <Modal title={t('findParts.title')} onClose={onClose}>
      <p className="muted">{t('findParts.intro')}</p>
      <p className="muted" role="status">
        {t('findParts.rows', { count: rows.length })}
      </p>
      {!suggestion.done ? (
        <p className="muted" role="status" data-testid="find-parts-finding">
          {t('findParts.finding')}
        </p>
      ) : !suggested ? (
        <p className="notice" data-testid="find-parts-none">
          {t('findParts.none')}
        </p>
      ) : (
        <>
          <TemplateField
            label={t('findParts.template')}
            help={t('findParts.templateHelp')}
            value={template}
            onChange={setTemplate}
            testId="find-parts-template"
          />
          <div className="field-row">
            {names.map((name) => (
              <label className="field" key={name}>
                <span>{t('findParts.name', { name })}</span>
                <input
                  defaultValue={name}
                  onBlur={(e) => rename(name, e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') rename(name, e.currentTarget.value);
                  }}
                  data-testid={`find-parts-name-${name}`}
                />
              </label>
            ))}
          </div>
          <div className="find-parts-preview">
            <table className="preview-table" data-testid="find-parts-preview">
              <thead>
                <tr>
                  <th scope="col">{t('findParts.prompt')}</th>
                  {names.map((name) => (
                    <th scope="col" key={name}>
                      {name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {matched.slice(0, PREVIEW_ROWS).map((r) => (
                  <tr key={r.index}>
                    <td>{r.prompt}</td>
                    {r.values ? (
                      names.map((name) => <td key={name}>{r.values![name]}</td>)
                    ) : (
                      <td colSpan={Math.max(1, names.length)} className="muted">
                        {t('findParts.noFit')}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {matched.length > PREVIEW_ROWS && (
            <p className="muted">{t('findParts.more', { count: matched.length - PREVIEW_ROWS })}</p>
          )}
        </>
      )}
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={!fitting.length}
          onClick={apply}
          data-testid="find-parts-accept"
        >
          {t('findParts.accept')} · {t('findParts.fits', { count: fitting.length })}
        </button>
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </Modal>
  );
}
