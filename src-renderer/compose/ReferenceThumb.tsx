import { useTranslation } from 'react-i18next';
import type { ReferenceImage } from '../../src-shared/draft';
import { useStudioQuery } from '../app/studio-queries';

export function ReferenceThumb({
  reference,
  onRemove,
}: {
  reference: ReferenceImage;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  const thumb = useStudioQuery('references.thumbnail', { reference });
  return (
    <span className="ref-thumb" title={`${reference.name} · ${Math.round(reference.bytes / 1024)} KB`}>
      {thumb.data ? (
        <img src={thumb.data} alt={reference.name} />
      ) : (
        <span className="ref-placeholder" aria-hidden="true" />
      )}
      {onRemove && (
        <button
          type="button"
          className="ref-remove"
          aria-label={t('compose.removeReference', { name: reference.name })}
          onClick={onRemove}
        >
          ×
        </button>
      )}
    </span>
  );
}
