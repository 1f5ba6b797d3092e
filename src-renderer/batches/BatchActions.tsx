import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchView } from '../../src-shared/batch-view';
import { useNavigation } from '../app/navigation-store';
import { useStudio } from '../app/studio-context';
import { confirmAction } from '../shell/confirm-store';
import { useMoney } from './money';

/**
 * What can be done to a batch. Whatever costs money or replaces files asks first, and says what it
 * will do with the money: a cancel names the hold it gives back.
 */
export function BatchActions({
  batch: b,
  act,
  busy,
}: {
  batch: BatchView;
  act(name: string, run: () => Promise<unknown>): Promise<void>;
  busy: string | undefined;
}) {
  const { t } = useTranslation();
  const studio = useStudio();
  const go = useNavigation((s) => s.go);
  const money = useMoney();
  const id = b.id;
  const [folder, setFolder] = useState<string>();
  const [redownloaded, setRedownloaded] = useState<{ count: number; folder: string }>();
  // A download again is reported once the library has the new folder, not when it was asked for.
  const againSince = useRef<number>(undefined);
  useEffect(() => {
    const since = againSince.current;
    if (since === undefined || b.download.state !== 'done' || (b.download.completedAt ?? 0) < since) return;
    againSince.current = undefined;
    setRedownloaded({ count: b.download.images ?? 0, folder: b.download.folder ?? '' });
  }, [b.download]);

  const canRetry = b.hasDraft && b.failCount > 0 && b.terminal;
  const inLibrary = b.download.state === 'done';
  return (
    <>
      <div className="actions">
        {!b.terminal && (
          <button
            type="button"
            onClick={async () => {
              const yes = await confirmAction(
                t(b.status === 'queued' ? 'batches.confirmCancelQueued' : 'batches.confirmCancelRunning', {
                  name: b.taskName || b.id,
                  hold: money(b.holdAmount),
                }),
              );
              if (yes) await act('cancel', () => studio.call('batches.cancel', { id }));
            }}
            disabled={busy === 'cancel'}
            data-testid="action-cancel"
          >
            {t('batches.cancel')}
          </button>
        )}
        {b.status === 'completed' && !inLibrary && (
          <button
            type="button"
            onClick={() => void act('download', () => studio.call('batches.download', { id }))}
            disabled={busy === 'download' || b.download.state === 'downloading'}
            data-testid="action-download"
          >
            {t('batches.download')}
          </button>
        )}
        {b.status === 'completed' && inLibrary && (
          <button
            type="button"
            disabled={busy === 'download'}
            data-testid="action-download-again"
            onClick={async () => {
              if (
                !(await confirmAction(
                  t('batches.confirmDownloadAgain', {
                    name: b.taskName || b.id,
                    count: b.download.images ?? 0,
                  }),
                ))
              )
                return;
              setRedownloaded(undefined);
              againSince.current = Date.now();
              void act('download', () => studio.call('batches.download', { id }));
            }}
          >
            {t('batches.downloadAgain')}
          </button>
        )}
        {canRetry && (
          <button
            type="button"
            className="primary"
            disabled={busy === 'retry'}
            data-testid="action-retry"
            onClick={() =>
              void act('retry', async () => {
                const result = await studio.call('batches.retryFailed', { id });
                if (result.batch) go('batches', result.batch.id);
              })
            }
          >
            {t('batches.retryFailed')}
          </button>
        )}
        {inLibrary && (
          <button
            type="button"
            onClick={() =>
              void act('folder', async () =>
                setFolder((await studio.call('batches.openFolder', { id })).path),
              )
            }
          >
            {t('batches.openFolder')}
          </button>
        )}
        {b.status === 'completed' && (
          <button
            type="button"
            className="danger"
            onClick={async () => {
              if (await confirmAction(t('batches.confirmDeleteOutputs', { name: b.taskName })))
                await act('outputs', () => studio.call('batches.deleteOutputs', { id }));
            }}
          >
            {t('batches.deleteOutputs')}
          </button>
        )}
        {b.terminal && (
          <button
            type="button"
            className="danger"
            onClick={async () => {
              if (!(await confirmAction(t('batches.confirmDeleteRecord', { name: b.taskName })))) return;
              const deleteLocalFiles = inLibrary && (await confirmAction(t('batches.deleteLocalToo')));
              void act('record', async () => {
                await studio.call('batches.deleteRecord', { id, deleteLocalFiles });
                go('batches');
              });
            }}
          >
            {t('batches.deleteRecord')}
          </button>
        )}
      </div>
      {redownloaded && (
        <p className="notice" role="status" data-testid="downloaded-again">
          {t('batches.downloadedAgain', redownloaded)}
        </p>
      )}
      {folder && <p className="muted mono">{t('batches.folderAt', { path: folder })}</p>}
    </>
  );
}
