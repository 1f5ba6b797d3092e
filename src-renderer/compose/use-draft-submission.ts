import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SentDraft } from '../../src-shared/batch-view';
import type { Draft } from '../../src-shared/draft';
import { draftFingerprint } from '../../src-shared/draft-fingerprint';
import type { MethodOutput } from '../../src-shared/studio-api';
import { StudioError } from '../../src-shared/studio-error';
import { useStudio } from '../app/studio-context';
import { useStudioQuery } from '../app/studio-queries';
import { confirmAction } from '../shell/confirm-store';
import { useAgo } from './time-ago';

export interface DraftSubmission {
  /** The last time this content was sent from the active profile (main remembers it), if ever. */
  lastSent: SentDraft | undefined;
  /** A submit of this window is under way. */
  submitting: boolean;
  result: MethodOutput<'batches.submit'> | undefined;
  error: StudioError | undefined;
  /** Sends the draft; content sent before is sent again only once the user says so. */
  submit(): Promise<void>;
  dismiss(): void;
}

/**
 * Where the draft stands with the gateway: sent before or not, being sent, the answer. One place,
 * so that whatever else should follow a submission (disabling, progress) has a single home.
 */
export function useDraftSubmission(draft: Draft | null): DraftSubmission {
  const { t } = useTranslation();
  const studio = useStudio();
  const client = useQueryClient();
  const ago = useAgo();
  const fingerprint = useMemo(() => (draft ? draftFingerprint(draft) : ''), [draft]);
  const lastSent = useStudioQuery('batches.lastSent', { fingerprint }, { enabled: fingerprint !== '' });
  const [submitting, setSubmitting] = useState(false);
  const [result, setResult] = useState<MethodOutput<'batches.submit'>>();
  const [error, setError] = useState<StudioError>();

  const submit = useCallback(async () => {
    if (!draft) return;
    setError(undefined);
    setResult(undefined);
    // Asked at the moment of sending, from main's record: a reload or another window changes nothing.
    const before = await studio.call('batches.lastSent', { fingerprint }).catch(() => lastSent.data ?? null);
    if (
      before &&
      !(await confirmAction(t('compose.confirmResend', { name: before.taskName, ago: ago(before.sentAt) })))
    )
      return;
    setSubmitting(true);
    try {
      setResult(await studio.call('batches.submit', { draft }));
      if ('Notification' in window && Notification.permission === 'default')
        void Notification.requestPermission();
    } catch (err) {
      setError(StudioError.from(err));
    } finally {
      setSubmitting(false);
      void client.invalidateQueries({ queryKey: ['batches.lastSent'] });
    }
  }, [draft, fingerprint, studio, client, lastSent.data, t, ago]);

  const dismiss = useCallback(() => {
    setResult(undefined);
    setError(undefined);
  }, []);

  // Sent from anywhere (this window, another, or resumed after a restart) and its outcome not yet
  // known: Submit stays off, since a second click would be a second paid batch with a new key.
  const inFlight = lastSent.data?.state === 'sending' || lastSent.data?.state === 'unknown';
  return { lastSent: lastSent.data, submitting: submitting || inFlight, result, error, submit, dismiss };
}
