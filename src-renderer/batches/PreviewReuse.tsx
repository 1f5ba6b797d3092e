import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StudioError } from '../../src-shared/studio-error';
import { ReferenceTargetDialog } from '../shared/ReferenceTargetDialog';
import { useReuse } from '../shared/use-reuse';
import { ErrorNotice } from '../shell/ErrorNotice';

/**
 * "Use as reference" on a batch item's preview: the item's image itself (the downloaded file, or
 * the gateway's copy before the download) goes into Compose, to every row or one.
 */
export function PreviewReuse({ batchId, customId }: { batchId: string; customId: string }) {
  const { t } = useTranslation();
  const [choosing, setChoosing] = useState(false);
  const [error, setError] = useState<StudioError>();
  const reuse = useReuse({ onMessage: () => undefined, onError: setError });
  return (
    <>
      <button
        type="button"
        className="small"
        onClick={() => setChoosing(true)}
        data-testid={`preview-reuse-${customId}`}
      >
        {t('reuse.useAsReference')}
      </button>
      {error && <ErrorNotice error={error.toView()} compact />}
      {choosing && (
        <ReferenceTargetDialog
          onChoose={(row) => {
            setChoosing(false);
            void reuse.addReference({ batchId, customId }, row);
          }}
          onError={setError}
          onClose={() => setChoosing(false)}
        />
      )}
    </>
  );
}
