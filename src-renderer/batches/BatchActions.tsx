import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchView } from '../../src-shared/batch-view';
import { useNavigation } from '../app/navigation-store';
import { confirmAction } from '../shell/confirm-store';
import { ErrorNotice } from '../shell/ErrorNotice';
import { useMoney } from './money';
import { useBatchActions } from './use-batch-actions';

/**
 * What can be done to a batch. Whatever costs money or replaces files asks first, and says what it
 * will do with the money: a cancel names the hold it gives back.
 */
export function BatchActions({ batch: b }: { batch: BatchView }) {
  const { t } = useTranslation();
  const { ask, pending, error } = useBatchActions();
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
              if (yes) ask('cancel').mutate({ id });
            }}
            disabled={pending.cancel.isPending}
            data-testid="action-cancel"
          >
            {t('batches.cancel')}
          </button>
        )}
        {b.status === 'completed' && !inLibrary && (
          <button
            type="button"
            onClick={() => ask('download').mutate({ id })}
            disabled={pending.download.isPending || b.download.state === 'downloading'}
            data-testid="action-download"
          >
            {t('batches.download')}
          </button>
        )}
        {b.status === 'completed' && inLibrary && (
          <button
            type="button"
            disabled={pending.download.isPending}
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
              ask('download').mutate({ id });
            }}
          >
            {t('batches.downloadAgain')}
          </button>
        )}
        {canRetry && (
          <button
            type="button"
            className="primary"
            disabled={pending.retry.isPending}
            data-testid="action-retry"
            onClick={() =>
              ask('retry').mutate(
                { id },
                { onSuccess: (result) => result.batch && go('batches', result.batch.id) },
              )
            }
          >
            {t('batches.retryFailed')}
          </button>
        )}
        {inLibrary && (
          <button
            type="button"
            onClick={() => ask('folder').mutate({ id }, { onSuccess: ({ path }) => setFolder(path) })}
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
                ask('outputs').mutate({ id });
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
              ask('record').mutate({ id, deleteLocalFiles }, { onSuccess: () => go('batches') });
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
      {error && <ErrorNotice error={error.toView()} />}
    </>
  );
}
