import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SentDraft } from '../../src-shared/batch-view';
import type { Draft } from '../../src-shared/draft';
import { draftFingerprint } from '../../src-shared/draft-fingerprint';
import type { MethodOutput } from '../../src-shared/studio-api';
import { StudioError } from '../../src-shared/studio-error';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { useMoney } from '../shared/money-format';
import { sendWithQuestions } from '../batches/send-questions';
import { localTimeZone } from '../../src-shared/money';
import { confirmAction } from '../shell/confirm-store';
import { newRunId } from './run-models';
import { useAgo } from '../shared/time-ago';

export interface DraftSubmission {
  /** The last time this content was sent from the active profile (main remembers it), if ever. */
  lastSent: SentDraft | undefined;
  /** A submit of this window is under way, or this content is being sent from anywhere. */
  submitting: boolean;
  /** This content is being sent, and not by a click in this window: another window, or a resume. */
  sendingElsewhere: boolean;
  /** The answer to a one-model submit. */
  result: MethodOutput<'batches.submit'> | undefined;
  /** The answer to a run: one batch per model. */
  run: MethodOutput<'batches.submitRun'> | undefined;
  error: StudioError | undefined;
  /** Sends the draft; main's guard decides, and its questions are asked here. */
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
 *
 * Whether to send is main's decision (its send guard): "sent before, send again?" and "past the
 * budget?" are its refusals, turned into questions here and answered by calling again with what the
 * user confirmed. The window asks no one before sending, so nothing can slip between a look-up and
 * the send.
 */
export function useDraftSubmission(
  draft: Draft | null,
  models: readonly string[],
  /** The draft once typing has paused (useSettled), as the screen already follows it. */
  settled: Draft | null,
): DraftSubmission {
  const { t } = useTranslation();
  const ago = useAgo();
  const money = useMoney();
  // Whether this content was sent before is asked once the draft has settled, not at every
  // keystroke (main's guard checks the draft actually sent in any case).
  const fingerprint = useMemo(() => (settled ? draftFingerprint(settled) : ''), [settled]);
  const lastSent = useStudioQuery('batches.lastSent', { fingerprint }, { enabled: fingerprint !== '' });
  const single = useStudioMutation('batches.submit', { invalidates: ['batches.lastSent'] });
  const many = useStudioMutation('batches.submitRun', { invalidates: ['batches.lastSent'] });
  const { mutateAsync: send, reset: resetSingle } = single;
  const { mutateAsync: sendRun, reset: resetRun } = many;
  const isRun = models.length > 1;
  // Set in the click itself, before anything is awaited: a second click finds the button off, and
  // the ref stops one that lands before the re-render.
  const clicked = useRef(false);
  const [busy, setBusy] = useState(false);

  const reset = useCallback(() => {
    resetSingle();
    resetRun();
  }, [resetSingle, resetRun]);

  const submit = useCallback(async () => {
    if (!draft || clicked.current) return;
    clicked.current = true;
    setBusy(true);
    reset();
    try {
      if (
        isRun &&
        !(await confirmAction(
          t('run.confirm', { count: models.length, models: models.join(', '), images: totalImages(draft) }),
        ))
      )
        return;
      // One run id per click: the questions' second send is the same run, never a new one.
      const runId = isRun ? newRunId() : '';
      const timeZone = localTimeZone();
      const sent = await sendWithQuestions<unknown>(
        (confirm) =>
          isRun
            ? sendRun({ runId, draft, models: [...models], confirm, timeZone })
            : send({ draft, confirm, timeZone }),
        { t, money, ago },
        StudioError.from,
      );
      // Declined: nothing was sent, and the refusal is not an error to show.
      if (sent === undefined) reset();
      else if ('Notification' in window && Notification.permission === 'default')
        void Notification.requestPermission();
    } catch {
      // The mutation keeps the error, and the screen shows it.
    } finally {
      clicked.current = false;
      setBusy(false);
    }
  }, [draft, reset, isRun, models, send, sendRun, t, money, ago]);

  // Sent from anywhere (this window, another, or resumed after a restart) and its outcome not yet
  // known: Submit stays off, since main would refuse a second send of it anyway.
  const inFlight = lastSent.data?.state === 'sending' || lastSent.data?.state === 'unknown';
  return {
    lastSent: lastSent.data,
    submitting: busy || single.isPending || many.isPending || inFlight,
    sendingElsewhere: inFlight && !busy,
    result: single.data,
    run: many.data,
    error: single.error ?? many.error ?? undefined,
    submit,
    dismiss: reset,
  };
}
