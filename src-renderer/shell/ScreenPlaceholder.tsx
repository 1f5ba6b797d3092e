import { useTranslation } from 'react-i18next';
import type { Screen } from '../app/navigation-store';

/** Stands in for a screen a later release builds. */
export function ScreenPlaceholder({ screen }: { screen: Exclude<Screen, 'settings'> }) {
  const { t } = useTranslation();
  return (
    <section className="screen placeholder" aria-labelledby="screen-title">
      <h1 id="screen-title">{t(`nav.${screen}`)}</h1>
      <p className="muted">{t('placeholder.body')}</p>
    </section>
  );
}
