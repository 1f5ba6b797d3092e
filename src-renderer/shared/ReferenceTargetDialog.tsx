import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import { StudioError } from '../../src-shared/studio-error';
import { useStudio } from '../app/studio-context';
import { Modal } from '../shell/Modal';
import { composeDraft } from './use-reuse';

interface Props {
  onChoose(row: number | undefined): void;
  onError(error: StudioError): void;
  onClose(): void;
}

/** Where in Compose's draft a reused image goes: every row (shared), or one row. */
export function ReferenceTargetDialog({ onChoose, onError, onClose }: Props) {
  const { t } = useTranslation();
  const studio = useStudio();
  const [draft, setDraft] = useState<Draft>();
  const [target, setTarget] = useState('shared');

  useEffect(() => {
    composeDraft(studio)
      .then(setDraft)
      .catch((err: unknown) => onError(StudioError.from(err)));
  }, [studio, onError]);

  return (
    <Modal title={t('reuse.targetTitle')} onClose={onClose} testId="reference-target">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onChoose(target === 'shared' ? undefined : Number(target));
        }}
      >
        <label className="field">
          <span>{t('reuse.target')}</span>
          <select
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            data-testid="reference-target-row"
          >
            <option value="shared">{t('reuse.everyRow')}</option>
            {draft?.items.map((item, i) => (
              <option key={item.customId} value={i}>
                {t('reuse.row', { n: i + 1, prompt: item.prompt.slice(0, 60) })}
              </option>
            ))}
          </select>
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={!draft} data-testid="reference-target-add">
            {t('reuse.add')}
          </button>
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
