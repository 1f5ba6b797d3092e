import { useTranslation } from 'react-i18next';
import { SCREENS, useNavigation } from '../app/navigation-store';

const ICONS: Record<(typeof SCREENS)[number], string> = {
  compose: '✎',
  batches: '☰',
  library: '❏',
  realtime: '⚡',
  kb: '❖',
  settings: '⚙',
};

export function Sidebar() {
  const { t } = useTranslation();
  const { screen, go } = useNavigation();
  return (
    <nav className="sidebar" aria-label={t('nav.label')}>
      <div className="brand">{t('app.title')}</div>
      <ul>
        {SCREENS.map((name) => (
          <li key={name}>
            <a
              href={`#/${name}`}
              className={screen === name ? 'nav-item active' : 'nav-item'}
              aria-current={screen === name ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                go(name);
              }}
            >
              <span className="nav-icon" aria-hidden="true">
                {ICONS[name]}
              </span>
              {t(`nav.${name}`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
