import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from './ErrorNotice';

/** No answer at all: the studio works on from the library and drafts, so this is a state, not an alarm. */
const OFFLINE_CODES = new Set(['NETWORK_ERROR', 'NETWORK_TIMEOUT']);

/**
 * The active profile's connection: asks the batch models endpoint, shows ok or the gateway's error,
 * and whether the knowledge base last refused its own key. Offline is one line; its details on demand.
 */
export function ConnectionIndicator() {
  const { t } = useTranslation();
  const status = useStudioQuery('connection.status');
  const profiles = useStudioQuery('profiles.list');
  const check = useStudioMutation('connection.check');
  const [details, setDetails] = useState(false);
  const profile = profiles.data?.find((p) => p.id === status.data?.profileId);
  const state = status.data?.state ?? 'checking';
  const error = state === 'error' ? status.data?.error : undefined;
  const offline = error !== undefined && OFFLINE_CODES.has(error.code);
  const kbError = status.data?.kb?.state === 'error' ? status.data.kb.error : undefined;
  const label =
    state === 'ok'
      ? t('connection.ok')
      : offline
        ? t('connection.offline')
        : state === 'error'
          ? t('connection.error')
          : t('connection.checking');

  return (
    <section
      className={`connection connection-${offline ? 'offline' : state}${kbError ? ' connection-kb-error' : ''}`}
      aria-label={t('connection.label', { profile: profile?.name ?? '' })}
      data-testid="connection-indicator"
      data-state={state}
      data-kb-state={status.data?.kb?.state ?? ''}
    >
      <div className="connection-line">
        <span className="status-dot" aria-hidden="true" />
        <span className="connection-profile">{profile?.name}</span>
        <span className="connection-state" role="status">
          {label}
          {state === 'ok' && status.data
            ? ` · ${t('connection.okDetail', { count: status.data.models.length })}`
            : ''}
          {offline ? ` · ${t('connection.offlineDetail')}` : ''}
          {kbError ? ` · ${t('connection.kbRefused')}` : ''}
        </span>
        {(offline || kbError) && (
          <button
            type="button"
            className="ghost small"
            aria-expanded={details}
            onClick={() => setDetails((d) => !d)}
            data-testid="connection-details"
          >
            {t('connection.details')}
          </button>
        )}
        <button
          type="button"
          className="ghost small"
          onClick={() => check.mutate({})}
          disabled={state === 'checking'}
        >
          {t('connection.retry')}
        </button>
      </div>
      {error && (!offline || details) && <ErrorNotice error={error} compact />}
      {kbError && details && (
        <div className="connection-kb">
          <ErrorNotice error={kbError} compact />
          <p className="help">{t('connection.kbRefusedHelp')}</p>
        </div>
      )}
    </section>
  );
}
