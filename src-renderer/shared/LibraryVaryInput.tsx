import { useTranslation } from 'react-i18next';
import { imagePaths } from '../../src-shared/image-paths';
import { imageUrl } from '../app/image-url';

/** "Vary" opens Realtime at `#/realtime/vary/<library id>`: the library image it varies, if any. */
export function varyingFrom(param: string | undefined): string | undefined {
  return param?.startsWith('vary/') ? param.slice('vary/'.length) || undefined : undefined;
}

/**
 * The library image Realtime varies, shown among its inputs. Only its id travels: the main process
 * reads the bytes (`fromLibraryIds`), so the image goes to the gateway unchanged.
 */
export function LibraryVaryInput({ id, onRemove }: { id: string; onRemove(): void }) {
  const { t } = useTranslation();
  return (
    <span className="ref-thumb" data-testid="rt-varying" title={t('reuse.varying')}>
      <img src={imageUrl(imagePaths.libraryThumb(id, 256))} alt={t('reuse.varying')} />
      <button type="button" className="ref-remove" aria-label={t('reuse.stopVarying')} onClick={onRemove}>
        ×
      </button>
    </span>
  );
}
