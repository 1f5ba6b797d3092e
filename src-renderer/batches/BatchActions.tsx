import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadOffer, inLibrary as isInLibrary } from '../../src-shared/batch-display-state';
import type { BatchView } from '../../src-shared/batch-view';
import { useNavigation } from '../app/navigation-store';
import { StudioError } from '../../src-shared/studio-error';
import { useAgo } from '../shared/time-ago';
import { confirmAction, withdrawQuestion } from '../shell/confirm-store';
import { ErrorNotice } from '../shell/ErrorNotice';
import { useMoney } from '../shared/money-format';
import { sendWithQuestions } from './send-questions';
import { localTimeZone } from '../../src-shared/money';
import { useBatchActions } from './use-batch-actions';

/** The time a download was asked for, read in event handlers only. */
const clock = () => Date.now();

/**
 * What can be done to a batch. Whatever costs money or replaces files asks first, and says what it
 * will do with the money: a cancel names the hold it gives back. Download offers only what can
 * happen (the shared derivation decides): a download, the images a library folder lacks, or a
 * replacement of a whole folder after a confirm; nothing when the server no longer has the outputs.
 */
export function BatchActions({ batch: b }: { batch: BatchView }) {
  const { t } = useTranslation();
  const { ask, pending, error } = useBatchActions();
  const go = useNavigation((s) => s.go);
  const money = useMoney();
  const ago = useAgo();
  const id = b.id;
  // Retry failed costs money: off in the click itself, before anything is awaited.
  const retrying = useRef(false);
  const [retryBusy, setRetryBusy] = useState(false);
  // A question about this batch follows it: when its state changes while the question is open, the
  // question is withdrawn with a word, since what it said ("the hold goes back") may no longer hold.
  const about = `batch:${id}`;
  const askedAt = useRef<string>(undefined);
  const [withdrawn, setWithdrawn] = useState<string>();
  useEffect(() => {
    if (askedAt.current === undefined || askedAt.current === b.status) return;
    askedAt.current = undefined;
    if (withdrawQuestion(about)) setWithdrawn(b.status);
  }, [b.status, about]);
  const ask_ = async (message: string) => {
    setWithdrawn(undefined);
    askedAt.current = b.status;
    try {
      return await confirmAction(message, about);
    } finally {
      askedAt.current = undefined;
    }
  };
  const [folder, setFolder] = useState<string>();
  const [redownloaded, setRedownloaded] = useState<{
    kind: 'again' | 'missing';
    count: number;
    folder: string;
  }>();
  // A download again (or a fetch of missing images) is reported once the library has the folder,
  // not when it was asked for.
  const asked = useRef<{ since: number; kind: 'again' | 'missing'; count: number }>(undefined);
  useEffect(() => {
    const since = asked.current?.since;
    if (since === undefined || b.download.state !== 'done' || (b.download.completedAt ?? 0) < since) return;
    const { kind, count } = asked.current!;
    asked.current = undefined;
    setRedownloaded({
      kind,
      count: kind === 'missing' ? count : (b.download.images ?? 0),
      folder: b.download.folder ?? '',
    });
  }, [b.download]);

  const canRetry = b.hasDraft && b.failCount > 0 && b.terminal;
  const inLibrary = isInLibrary(b);
  const offer = downloadOffer(b);
  const busy = pending.download.isPending || offer.kind === 'busy';
  return (
    <>
      <div className="actions">
        {!b.terminal && (
          <button
            type="button"
            onClick={async () => {
              const yes = await ask_(
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
        {!inLibrary && (offer.kind === 'download' || offer.kind === 'busy') && (
          <button
            type="button"
            onClick={() => ask('download').mutate({ id, mode: 'missing' })}
            disabled={busy}
            data-testid="action-download"
          >
            {t('batches.download')}
          </button>
        )}
        {offer.kind === 'fetch-missing' && (
          <button
            type="button"
            disabled={busy}
            data-testid="action-fetch-missing"
            onClick={() => {
              // Nothing is replaced or paid again: no question, and it says what it did once done.
              setRedownloaded(undefined);
              asked.current = { since: clock(), kind: 'missing', count: offer.missing };
              ask('download').mutate({ id, mode: 'missing' });
            }}
          >
            {t('batches.fetchMissing', { count: offer.missing })}
          </button>
        )}
        {inLibrary && (offer.kind === 'replace' || offer.kind === 'busy') && (
          <button
            type="button"
            disabled={busy}
            data-testid="action-download-again"
            onClick={async () => {
              if (
                !(await ask_(
                  t('batches.confirmDownloadAgain', {
                    name: b.taskName || b.id,
                    count: b.download.images ?? 0,
                  }),
                ))
              )
                return;
              setRedownloaded(undefined);
              asked.current = { since: Date.now(), kind: 'again', count: 0 };
              ask('download').mutate({ id, mode: 'replace' });
            }}
          >
            {t('batches.downloadAgain')}
          </button>
        )}
        {canRetry && (
          <button
            type="button"
            className="primary"
            disabled={retryBusy || pending.retry.isPending}
            data-testid="action-retry"
            onClick={async () => {
              if (retrying.current) return;
              retrying.current = true;
              setRetryBusy(true);
              const retry = ask('retry');
              try {
                const timeZone = localTimeZone();
                const result = await sendWithQuestions(
                  (confirm) => retry.mutateAsync({ id, confirm, timeZone }),
                  { t, money, ago },
                  StudioError.from,
                );
                if (result === undefined) retry.reset();
                else if (result.batch) go('batches', result.batch.id);
              } catch {
                // The mutation keeps the error, and the screen shows it.
              } finally {
                retrying.current = false;
                setRetryBusy(false);
              }
            }}
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
              if (await ask_(t('batches.confirmDeleteOutputs', { name: b.taskName })))
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
              if (!(await ask_(t('batches.confirmDeleteRecord', { name: b.taskName })))) return;
              const deleteLocalFiles = inLibrary && (await confirmAction(t('batches.deleteLocalToo')));
              ask('record').mutate({ id, deleteLocalFiles }, { onSuccess: () => go('batches') });
            }}
          >
            {t('batches.deleteRecord')}
          </button>
        )}
      </div>
      {withdrawn && (
        <p className="notice" role="status" data-testid="question-withdrawn">
          {t('batches.questionWithdrawn', { status: t(`status.${withdrawn}` as 'status.queued') })}
        </p>
      )}
      {redownloaded && (
        <p className="notice" role="status" data-testid="downloaded-again">
          {redownloaded.kind === 'missing'
            ? t('batches.fetchedMissing', redownloaded)
            : t('batches.downloadedAgain', redownloaded)}
        </p>
      )}
      {folder && <p className="muted mono">{t('batches.folderAt', { path: folder })}</p>}
      {error && <ErrorNotice error={error.toView()} />}
    </>
  );
}
