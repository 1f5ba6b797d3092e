import { useTranslation } from 'react-i18next';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from './ErrorNotice';

/** The active profile's connection: asks the batch models endpoint, shows ok or the gateway's error. */
export function ConnectionIndicator() {
  const { t } = useTranslation();
  const status = useStudioQuery('connection.status');
  const profiles = useStudioQuery('profiles.list');
  const check = useStudioMutation('connection.check');
  const profile = profiles.data?.find((p) => p.id === status.data?.profileId);
  const state = status.data?.state ?? 'checking';
  const label =
    state === 'ok'
      ? t('connection.ok')
      : state === 'error'
        ? t('connection.error')
        : t('connection.checking');

  return (
    <section
      className={`connection connection-${state}`}
      aria-label={t('connection.label', { profile: profile?.name ?? '' })}
      data-testid="connection-indicator"
      data-state={state}
    >
      <div className="connection-line">
        <span className="status-dot" aria-hidden="true" />
        <span className="connection-profile">{profile?.name}</span>
        <span className="connection-state" role="status">
          {label}
          {state === 'ok' && status.data
            ? ` · ${t('connection.okDetail', { count: status.data.models.length })}`
            : ''}
        </span>
        <button
          type="button"
          className="ghost small"
          onClick={() => check.mutate({})}
          disabled={state === 'checking'}
        >
          {t('connection.retry')}
        </button>
      </div>
      {state === 'error' && status.data?.error && <ErrorNotice error={status.data.error} compact />}
    </section>
  );
}
