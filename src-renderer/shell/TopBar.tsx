import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, type ThemePreference } from '../../src-shared/settings';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { ConnectionIndicator } from './ConnectionIndicator';

/** Always within reach: the connection, the language and the theme. */
export function TopBar() {
  const { t } = useTranslation();
  const settings = useStudioQuery('settings.get');
  const update = useStudioMutation('settings.update');
  return (
    <header className="topbar">
      <ConnectionIndicator />
      <div className="topbar-controls">
        <label className="inline-field">
          <span>{t('language.label')}</span>
          <select
            value={settings.data?.language ?? 'en'}
            onChange={(e) => update.mutate({ language: e.target.value as Language })}
            data-testid="language-select"
          >
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {t(`language.${l}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t('theme.label')}</span>
          <select
            value={settings.data?.theme ?? 'system'}
            onChange={(e) => update.mutate({ theme: e.target.value as ThemePreference })}
            data-testid="theme-select"
          >
            {(['system', 'light', 'dark'] as const).map((theme) => (
              <option key={theme} value={theme}>
                {t(`theme.${theme}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
    </header>
  );
}
