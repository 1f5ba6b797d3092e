import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MethodInput } from '../../../src-shared/studio-api';
import type { WhatWorkedQuery, WhatWorkedRow } from '../../../src-shared/what-worked';
import { StudioError } from '../../../src-shared/studio-error';
import { GATEWAY_LIMITS } from '../../../src-shared/draft-rules';
import { useNavigation } from '../../app/navigation-store';
import { useStudioMutation } from '../../app/studio-queries';
import { useCompose } from '../../shared/compose-store';
import { ErrorNotice } from '../../shell/ErrorNotice';
import { Modal } from '../../shell/Modal';

/** The gateway's images per row: more would be refused when the draft is sent. */
const MAX_PER_ROW = GATEWAY_LIMITS.maxOutputCount;

interface Props {
  query: WhatWorkedQuery;
  /** The winners, best first, as ticked in the table. */
  chosen: WhatWorkedRow[];
  by: string[];
  onClose(): void;
}

/**
 * "New draft from what worked": the winning values crossed again through the template, or the
 * picked prompts kept as they are; images per row; optionally the picked images as references.
 * The draft is saved and opened in Compose: nothing is sent until the person submits it.
 */
export function NextRoundDialog({ query, chosen, by, onClose }: Props) {
  const { t } = useTranslation();
  const go = useNavigation((s) => s.go);
  const make = useStudioMutation('drafts.fromWhatWorked', { invalidates: ['drafts.list'] });
  const [mode, setMode] = useState<MethodInput<'drafts.fromWhatWorked'>['mode']>('cross');
  const [outputCount, setOutputCount] = useState(1);
  const [withReferences, setWithReferences] = useState(false);
  const [error, setError] = useState<StudioError>();

  async function create() {
    setError(undefined);
    try {
      const draft = await make.mutateAsync({
        query,
        chosen: chosen.map((row) => row.values),
        mode,
        outputCount,
        withReferences,
      });
      useCompose.getState().load(draft);
      onClose();
      go('compose');
    } catch (err) {
      setError(StudioError.from(err));
    }
  }

  return (
    <Modal title={t('worked.draftTitle')} onClose={onClose} testId="what-worked-draft-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen.length && !make.isPending) void create();
        }}
      >
        <p>{t('worked.draftChosen', { count: chosen.length })}</p>
        <ul className="ww-winners" data-testid="what-worked-winners">
          {chosen.map((row) => (
            <li key={JSON.stringify(row.values)}>
              {by.map((name) => row.values[name] || t('worked.none')).join(' · ')}
            </li>
          ))}
        </ul>
        {!chosen.length && <p className="notice">{t('worked.draftNothing')}</p>}
        <fieldset className="field">
          <legend>{t('worked.draftMode')}</legend>
          {(['cross', 'keep'] as const).map((m) => (
            <label className="check" key={m}>
              <input
                type="radio"
                name="what-worked-mode"
                checked={mode === m}
                onChange={() => setMode(m)}
                data-testid={`what-worked-mode-${m}`}
              />
              {t(m === 'cross' ? 'worked.modeCross' : 'worked.modeKeep')}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>{t('worked.perRow')}</span>
          <input
            type="number"
            min={1}
            max={MAX_PER_ROW}
            value={outputCount}
            onChange={(e) =>
              setOutputCount(Math.max(1, Math.min(MAX_PER_ROW, Math.round(Number(e.target.value) || 1))))
            }
            data-testid="what-worked-per-row"
          />
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={withReferences}
            onChange={(e) => setWithReferences(e.target.checked)}
            data-testid="what-worked-references"
          />
          {t('worked.withReferences')}
        </label>
        <p className="muted">{t('worked.draftNotSent')}</p>
        {error && <ErrorNotice error={error.toView()} />}
        <div className="actions">
          <button
            type="submit"
            className="primary"
            disabled={!chosen.length || make.isPending}
            data-testid="what-worked-draft-create"
          >
            {t('worked.draftCreate')}
          </button>
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
