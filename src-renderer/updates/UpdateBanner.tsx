import { useTranslation } from 'react-i18next';
import { isLanguage } from '../../src-shared/i18n/i18n-options';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { availabilityText, notesIn, workText } from '../../src-shared/update-text';
import './updates.css';

/**
 * The update on offer, above every screen: its version and notes while it downloads and once it
 * is ready, with Restart now, Later and Skip this version. Restart now waits for running work and
 * says for what; the studio never restarts by itself. Put away by Later until the next version.
 */
export function UpdateBanner() {
  const { t, i18n } = useTranslation();
  const status = useStudioQuery('updates.status');
  const restart = useStudioMutation('updates.restart');
  const later = useStudioMutation('updates.later');
  const skip = useStudioMutation('updates.skip');
  const s = status.data;
  if (!s?.offer || s.dismissed || (s.phase !== 'ready' && s.phase !== 'downloading')) return null;
  const { version } = s.offer;
  const notes = notesIn(s.offer.notes, isLanguage(i18n.language) ? i18n.language : 'en');
  const inert = s.availability.kind !== 'ready';
  const error = restart.error ?? later.error ?? skip.error;

  return (
    <section
      className="update-banner"
      role="region"
      aria-label={t('updates.bannerLabel')}
      data-testid="update-banner"
    >
      <p className="update-title" role="status">
        {s.phase === 'ready'
          ? t('updates.ready', { version })
          : t('updates.downloading', { version, percent: Math.round(s.offer.percent ?? 0) })}
      </p>
      {notes && (
        <details className="update-notes">
          <summary>{t('updates.whatsNew', { version })}</summary>
          <p className="update-notes-text" data-testid="update-notes">
            {notes}
          </p>
        </details>
      )}
      {s.restartPending && (
        <p className="notice warn" role="status" data-testid="update-waiting">
          {t('updates.waitingFor', { work: workText(t, s.waitingFor) })}
        </p>
      )}
      {inert && (
        <p className="muted" data-testid="update-inert">
          {availabilityText(t, s)} {t('updates.inert')}
        </p>
      )}
      <div className="actions">
        {s.phase === 'ready' && (
          <button
            type="button"
            className="primary"
            disabled={restart.isPending || s.restartPending}
            onClick={() => restart.mutate({})}
          >
            {t('updates.restartNow')}
          </button>
        )}
        <button type="button" onClick={() => later.mutate({})}>
          {t('updates.later')}
        </button>
        <button type="button" onClick={() => skip.mutate({})}>
          {t('updates.skip')}
        </button>
      </div>
      {error && <ErrorNotice error={error} compact />}
    </section>
  );
}
