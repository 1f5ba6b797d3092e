import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../src-shared/i18n/i18n-options';
import type { Language, Settings, ThemePreference } from '../../src-shared/settings';
import { queryKey, useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { pickLanguage, pickNotSaved } from '../i18n/i18n';
import { Dismissible } from './Dismissible';
import { ErrorNotice } from './ErrorNotice';

const THEMES: ThemePreference[] = ['system', 'light', 'dark'];

/** The language and theme pickers; the choice is kept by main and applies everywhere at once. */
export function AppearanceSelects({ className, testIds = false }: { className: string; testIds?: boolean }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const settings = useStudioQuery('settings.get');
  // Read again once saved, so the pick stands (applySavedLanguage) even where no event comes.
  const update = useStudioMutation('settings.update', { invalidates: ['settings.get'] });
  // Why the last pick did not stay: the mutation's own error, until the next pick or Close (reset).
  const notSaved = update.error;
  return (
    <>
      <label className={className}>
        <span>{t('language.label')}</span>
        <select
          value={settings.data?.language ?? 'en'}
          onChange={(e) => {
            // Switched here at once, not after main's answer: a click right after the choice
            // (Submit, say) asked its question in the language just left.
            const language = e.target.value as Language;
            pickLanguage(language);
            // Not saved: back to what main holds, as last heard (an answer may have come meanwhile).
            const saved = () => client.getQueryData<Settings>(queryKey('settings.get'))?.language;
            update.mutate({ language }, { onError: () => pickNotSaved(saved()) });
          }}
          data-testid={testIds ? 'language-select' : undefined}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {t(`language.${l}`)}
            </option>
          ))}
        </select>
      </label>
      <label className={className}>
        <span>{t('theme.label')}</span>
        <select
          value={settings.data?.theme ?? 'system'}
          onChange={(e) => update.mutate({ theme: e.target.value as ThemePreference })}
          data-testid={testIds ? 'theme-select' : undefined}
        >
          {THEMES.map((theme) => (
            <option key={theme} value={theme}>
              {t(`theme.${theme}`)}
            </option>
          ))}
        </select>
      </label>
      {notSaved && (
        <Dismissible className="appearance-not-saved" role="group" onDismiss={() => update.reset()}>
          <p>{t('appearance.notSaved')}</p>
          <ErrorNotice error={notSaved.toView()} compact />
          <button type="button" className="link-button" onClick={() => update.reset()}>
            {t('common.close')}
          </button>
        </Dismissible>
      )}
    </>
  );
}
