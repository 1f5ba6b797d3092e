import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { SentDraft } from '../../src-shared/batch-view';
import type { Draft } from '../../src-shared/draft';
import { draftFingerprint } from '../../src-shared/draft-fingerprint';
import type { MethodOutput } from '../../src-shared/studio-api';
import type { StudioError } from '../../src-shared/studio-error';
import { useStudioFetch, useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { confirmWithinBudget } from '../batches/budget-warning';
import { useMoney } from '../batches/money';
import { confirmAction } from '../shell/confirm-store';
import { newRunId } from './run-models';
import { useAgo } from './time-ago';

export interface DraftSubmission {
  /** The last time this content was sent from the active profile (main remembers it), if ever. */
  lastSent: SentDraft | undefined;
  /** A submit of this window is under way. */
  submitting: boolean;
  /** The answer to a one-model submit. */
  result: MethodOutput<'batches.submit'> | undefined;
  /** The answer to a run: one batch per model. */
  run: MethodOutput<'batches.submitRun'> | undefined;
  error: StudioError | undefined;
  /** Sends the draft; content sent before is sent again only once the user says so. */
  submit(): Promise<void>;
  dismiss(): void;
}

const totalImages = (draft: Draft) =>
  draft.items.reduce((sum, item) => sum + Math.max(0, item.outputCount), 0);

/**
 * Where the draft stands with the gateway: sent before or not, being sent, the answer. One place,
 * so that whatever else should follow a submission (disabling, progress) has a single home.
 * `models`: every model the draft goes to, its own first. One model is a plain `batches.submit`;
 * several are one `batches.submitRun`, whose id is made once per click.
 */
export function useDraftSubmission(draft: Draft | null, models: readonly string[] = []): DraftSubmission {
  const { t } = useTranslation();
  const ago = useAgo();
  const money = useMoney();
  const fetch = useStudioFetch();
  const fingerprint = useMemo(() => (draft ? draftFingerprint(draft) : ''), [draft]);
  const lastSent = useStudioQuery('batches.lastSent', { fingerprint }, { enabled: fingerprint !== '' });
  const single = useStudioMutation('batches.submit', { invalidates: ['batches.lastSent'] });
  const many = useStudioMutation('batches.submitRun', { invalidates: ['batches.lastSent'] });
  const { mutateAsync: send, reset: resetSingle } = single;
  const { mutateAsync: sendRun, reset: resetRun } = many;
  const isRun = models.length > 1;

  const reset = useCallback(() => {
    resetSingle();
    resetRun();
  }, [resetSingle, resetRun]);

  /** Whether the user still wants to send what was sent before, on any of the models. */
  const confirmNotSentBefore = useCallback(
    async (current: Draft): Promise<boolean> => {
      if (!isRun) {
        // Asked at the moment of sending, from main's record: a reload or another window changes nothing.
        const before = await fetch('batches.lastSent', { fingerprint }).catch(() => lastSent.data ?? null);
        return (
          !before ||
          confirmAction(t('compose.confirmResend', { name: before.taskName, ago: ago(before.sentAt) }))
        );
      }
      for (const model of models) {
        const before = await fetch('batches.lastSent', {
          fingerprint: draftFingerprint({ ...current, model }),
        }).catch(() => null);
        if (before)
          return confirmAction(
            t('run.confirmResend', { model, name: before.taskName, ago: ago(before.sentAt) }),
          );
      }
      return true;
    },
    [isRun, models, fetch, fingerprint, lastSent.data, t, ago],
  );

  const submit = useCallback(async () => {
    if (!draft) return;
    reset();
    if (!(await confirmNotSentBefore(draft))) return;
    if (
      isRun &&
      !(await confirmAction(
        t('run.confirm', { count: models.length, models: models.join(', '), images: totalImages(draft) }),
      ))
    )
      return;
    // Past the monthly budget, or with no estimate to tell, sending takes a second click.
    if (!(await confirmWithinBudget(fetch, draft, t, money, isRun ? models : [draft.model]))) return;
    try {
      if (isRun) await sendRun({ runId: newRunId(), draft, models: [...models] });
      else await send({ draft });
      if ('Notification' in window && Notification.permission === 'default')
        void Notification.requestPermission();
    } catch {
      // The mutation keeps the error, and the screen shows it.
    }
  }, [draft, reset, confirmNotSentBefore, isRun, models, fetch, send, sendRun, t, money]);

  // Sent from anywhere (this window, another, or resumed after a restart) and its outcome not yet
  // known: Submit stays off, since a second click would be a second paid batch with a new key.
  const inFlight = lastSent.data?.state === 'sending' || lastSent.data?.state === 'unknown';
  return {
    lastSent: lastSent.data,
    submitting: single.isPending || many.isPending || inFlight,
    result: single.data,
    run: many.data,
    error: single.error ?? many.error ?? undefined,
    submit,
    dismiss: reset,
  };
}
