import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { updateChannelSchema, updateModeSchema, type UpdateMode } from '../../src-shared/updates';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { availabilityText, lastCheckText } from '../../src-shared/update-text';
import './updates.css';

const MODE_LABELS = {
  off: 'updates.modeOff',
  manual: 'updates.modeManual',
  start: 'updates.modeStart',
  automatic: 'updates.modeAutomatic',
} as const satisfies Record<UpdateMode, string>;

/**
 * Settings' Updates section: when to look (off, when asked, at start, automatic), the channel,
 * install on quit, and "Check for Updates…". In browser mode it is shown, says it does nothing,
 * and its controls are kept (they are the desktop's preferences) but check nothing.
 */
export function UpdateSettings() {
  const { t } = useTranslation();
  const id = useId();
  const status = useStudioQuery('updates.status');
  const setPreferences = useStudioMutation('updates.setPreferences');
  const check = useStudioMutation('updates.check');
  const s = status.data;
  if (!s) return null;
  const why = availabilityText(t, s);
  const said = lastCheckText(t, s);
  const canCheck =
    (s.availability.kind === 'ready' || s.availability.kind === 'demo') && s.preferences.mode !== 'off';

  return (
    <section className="settings-section" aria-labelledby={`${id}-updates`} data-testid="update-settings">
      <h2 id={`${id}-updates`}>{t('updates.title')}</h2>
      <p>{t('updates.current', { version: s.currentVersion })}</p>
      {s.preferences.mode === 'off' && (
        <p className="notice" data-testid="update-off">
          {t('updates.off')}
        </p>
      )}
      {why && (
        <p className="notice" data-testid="update-availability">
          {why}
        </p>
      )}
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-mode`}>{t('updates.mode')}</label>
          <select
            id={`${id}-mode`}
            value={s.preferences.mode}
            data-testid="update-mode"
            onChange={(e) => setPreferences.mutate({ mode: updateModeSchema.parse(e.target.value) })}
          >
            {updateModeSchema.options.map((mode) => (
              <option key={mode} value={mode}>
                {t(MODE_LABELS[mode])}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-channel`}>{t('updates.channel')}</label>
          <select
            id={`${id}-channel`}
            value={s.preferences.channel}
            data-testid="update-channel"
            onChange={(e) => setPreferences.mutate({ channel: updateChannelSchema.parse(e.target.value) })}
          >
            <option value="latest">{t('updates.channelLatest')}</option>
            <option value="beta">{t('updates.channelBeta')}</option>
          </select>
        </div>
      </div>
      <label className="check">
        <input
          type="checkbox"
          checked={s.preferences.installOnQuit}
          onChange={(e) => setPreferences.mutate({ installOnQuit: e.target.checked })}
        />
        {t('updates.installOnQuit')}
      </label>
      <div className="actions">
        <button
          type="button"
          disabled={!canCheck || check.isPending || s.phase === 'checking'}
          onClick={() => check.mutate({})}
          data-testid="update-check"
        >
          {t('updates.checkNow')}
        </button>
      </div>
      {said && (
        <p className="muted" role="status" data-testid="update-last-check">
          {said}
        </p>
      )}
      {(setPreferences.error ?? check.error) && (
        <ErrorNotice error={(setPreferences.error ?? check.error)!} />
      )}
    </section>
  );
}
