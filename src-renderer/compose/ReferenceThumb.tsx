import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReferenceImage } from '../../src-shared/draft';
import { imagePaths } from '../../src-shared/image-paths';
import { imageUrl } from '../app/image-url';

export function ReferenceThumb({
  reference,
  onRemove,
}: {
  reference: ReferenceImage;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState(false);
  return (
    <span className="ref-thumb" title={`${reference.name} · ${Math.round(reference.bytes / 1024)} KB`}>
      {!broken ? (
        <img
          src={imageUrl(imagePaths.referenceThumb(reference.id))}
          alt={reference.name}
          onError={() => setBroken(true)}
        />
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
