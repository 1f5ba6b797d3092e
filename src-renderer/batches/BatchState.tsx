import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  batchDisplayState,
  failedDownloadMessage,
  type BatchDisplayState,
  type DisplayInput,
} from '../../src-shared/batch-display-state';
import type { DownloadProgress } from '../../src-shared/batch-view';
import { isMessageName } from '../../src-shared/i18n/message-keys';
import { useStudio } from '../app/studio-context';

/** A batch's one display state, with the live download progress main pushes (a few a second). */
export function useBatchDisplayState(batch: DisplayInput & { id: string }): BatchDisplayState {
  const studio = useStudio();
  const [progress, setProgress] = useState<DownloadProgress>();
  useEffect(
    () =>
      studio.on('download.progress', (p) => {
        if (p.batchId === batch.id) setProgress(p);
      }),
    [studio, batch.id],
  );
  return batchDisplayState(batch, progress);
}

/** The badge: the server's status, or that the server no longer has the batch. */
export function StatusBadge({
  batch,
  state,
  testId,
}: {
  batch: DisplayInput;
  state: BatchDisplayState;
  testId: string;
}) {
  const { t } = useTranslation();
  // A library batch the server lost is still gone from the server, though in the library.
  const gone = state.kind === 'gone' || batch.goneOnServer;
  return (
    <span
      className={`badge status-${gone ? 'gone' : batch.status}`}
      data-testid={testId}
      data-state={state.kind}
    >
      {gone
        ? t('batches.stateGone')
        : isMessageName('status', batch.status)
          ? t(`status.${batch.status}`)
          : batch.status}
    </span>
  );
}

/** Where the images stand: waiting, downloading (item k of n), verifying, in the library, failed. */
export function downloadLabel(state: BatchDisplayState, t: TFunction): string {
  switch (state.kind) {
    case 'waiting-slot':
      return t('batches.stateWaitingSlot');
    case 'downloading-elsewhere':
      return t('batches.stateDownloadingElsewhere');
    case 'downloading':
      return state.of !== undefined
        ? t('batches.stateDownloadingItem', { item: state.item ?? 0, of: state.of })
        : t('batches.stateDownloading');
    case 'verifying':
      return state.of !== undefined
        ? t('batches.stateVerifyingItem', { item: state.item ?? 0, of: state.of })
        : t('batches.stateVerifying');
    case 'in-library':
      return t('batches.stateInLibrary');
    case 'download-failed': {
      // "Retrying" only when a retry is really set, with its time in the reader's language.
      const message = failedDownloadMessage(state);
      return 'values' in message ? t(message.key, message.values) : t(message.key);
    }
    case 'expired':
      return t('batches.stateExpired');
    default:
      return t('batches.stateNotDownloaded');
  }
}

/** The name of a display kind in the state filter. */
export function kindLabel(kind: Exclude<BatchDisplayState['kind'], 'server'>, t: TFunction): string {
  return kind === 'gone' ? t('batches.stateGone') : downloadLabel({ kind } as BatchDisplayState, t);
}

export function DownloadLabel({ state, testId }: { state: BatchDisplayState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className="muted small" data-testid={testId} data-state={state.kind}>
      {downloadLabel(state, t)}
    </span>
  );
}

/** The badge and the download label of one batch, from the one derivation: card and detail alike. */
export function BatchStateLine({
  batch,
  statusTestId,
  downloadTestId,
}: {
  batch: DisplayInput & { id: string };
  statusTestId: string;
  downloadTestId?: string;
}) {
  const state = useBatchDisplayState(batch);
  return (
    <>
      <StatusBadge batch={batch} state={state} testId={statusTestId} />
      <DownloadLabel state={state} testId={downloadTestId} />
    </>
  );
}
