import { useTranslation } from 'react-i18next';
import type { DownloadState } from '../../src-shared/batch-view';
import { ErrorNotice } from '../shell/ErrorNotice';

/**
 * Why a batch's images are not in the library. When the ZIP was refused and the image-by-image
 * fallback failed too, both reasons are shown: either may be the one the user can act on.
 */
export function DownloadProblem({ download }: { download: DownloadState }) {
  const { t } = useTranslation();
  if (!download.error) return null;
  if (!download.zipError) return <ErrorNotice error={download.error} compact />;
  return (
    <div className="download-problem" data-testid="download-problem">
      <p>{t('batches.zipRefused')}</p>
      <ErrorNotice error={download.zipError} compact />
      <p>{t('batches.itemsFailedToo')}</p>
      <ErrorNotice error={download.error} compact />
    </div>
  );
}
