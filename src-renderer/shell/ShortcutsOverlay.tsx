import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { Screen } from '../app/navigation-store';
import { Modal } from './Modal';
import { keysLabel, SCREEN_SHORTCUTS } from './shortcuts';

/** The `?` overlay: every shortcut of the current screen, read from the same lists that bind them. */
export function ShortcutsOverlay({ screen, onClose }: { screen: Screen; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal
      title={t('shortcuts.title', { screen: t(`nav.${screen}`) })}
      onClose={onClose}
      testId="shortcuts-overlay"
    >
      {SCREEN_SHORTCUTS[screen].map((group) => (
        <section key={group.where} data-testid={`shortcuts-${group.where}`}>
          <h3>{t(`shortcuts.where.${group.where}`)}</h3>
          <dl className="shortcut-list">
            {group.shortcuts.map((s) => (
              <Fragment key={s.id}>
                <dt>
                  <kbd>{keysLabel(s)}</kbd>
                </dt>
                <dd>{t(`shortcuts.${s.id}`)}</dd>
              </Fragment>
            ))}
          </dl>
        </section>
      ))}
      <div className="actions">
        <button type="button" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}
