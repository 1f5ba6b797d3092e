import { useTranslation } from 'react-i18next';
import type { KbPush } from '../../src-shared/kb-view';
import { useStudioMutation } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';

const SHOWN = 10;

/** Refusals that mean the key itself is wrong, where the fix is in Settings. */
const KEY_CODES = new Set(['unAuthApiKey', 'STUDIO_KEY_MISSING']);

/** Recent uploads with their progress; a refused upload says so, why, and what to do. */
export function KbUploads({ pushes }: { pushes: KbPush[] }) {
  const { t } = useTranslation();
  // The upload's new state arrives by main's events; the mutation keeps a refusal to resume.
  const resume = useStudioMutation('kb.resume');
  return (
    <>
      <h3>{t('kb.uploads')}</h3>
      {pushes.length > SHOWN && (
        <p className="muted small">{t('kb.uploadsShown', { shown: SHOWN, count: pushes.length })}</p>
      )}
      <ul className="kb-pushes">
        {pushes.slice(0, SHOWN).map((push) => (
          <li key={push.id} data-testid="kb-push" data-state={push.state}>
            <span className={`badge${push.state === 'refused' ? ' danger-badge' : ''}`}>
              {t(`kb.state_${push.state}`)}
            </span>{' '}
            {push.kbId} · {push.mode} ·{' '}
            {t('kb.uploadLine', { sent: push.chunksSent, count: push.chunks, inserted: push.inserted })}
            <span
              className="progress"
              role="progressbar"
              aria-label={push.id}
              aria-valuemin={0}
              aria-valuemax={push.chunks}
              aria-valuenow={push.chunksSent}
            >
              <span
                className="progress-ok"
                style={{ width: `${(push.chunksSent / Math.max(1, push.chunks)) * 100}%` }}
              />
            </span>
            {push.state !== 'running' && push.state !== 'done' && (
              <button
                type="button"
                className="small"
                disabled={resume.isPending && resume.variables?.id === push.id}
                onClick={() => resume.mutate({ id: push.id })}
              >
                {push.state === 'paused'
                  ? t('kb.resume')
                  : push.state === 'refused'
                    ? t('kb.tryAgain')
                    : t('kb.retryFailed')}
              </button>
            )}
            {push.error && <ErrorNotice error={push.error} compact />}
            {push.state === 'refused' && (
              <p className="help" data-testid="kb-refused-help">
                {KEY_CODES.has(push.error?.code ?? '') ? t('kb.refusedKey') : t('kb.refusedOther')}
              </p>
            )}
          </li>
        ))}
      </ul>
      {resume.error && <ErrorNotice error={resume.error.toView()} compact />}
    </>
  );
}
