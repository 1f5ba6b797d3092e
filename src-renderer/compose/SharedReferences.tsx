import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import { useCompose } from '../shared/compose-store';
import { useComposePrefs } from './compose-prefs';
import { draftActions } from '../shared/draft-actions';
import { ReferenceThumb } from './ReferenceThumb';

/**
 * The references every row gets: those dropped on the screen rather than on one row. One line, and
 * foldable (remembered) to its title and count, so the grid keeps the height of the window.
 */
export function SharedReferences({ draft }: { draft: Draft }) {
  const { t } = useTranslation();
  const id = useId();
  const change = useCompose((s) => s.change);
  const open = useComposePrefs((s) => s.sharedRefsOpen);
  const toggle = useComposePrefs((s) => s.toggle);
  const references = new Map(draft.references.map((r) => [r.id, r]));
  return (
    <details
      className="shared-refs"
      open={open}
      onToggle={(e) => e.currentTarget.open !== open && toggle('sharedRefsOpen')}
    >
      <summary id={`${id}-shared`} className="label">
        {t('compose.sharedReferencesCount', { count: draft.sharedReferenceIds.length })}
      </summary>
      {/* One line: the thumbnails, or how to add them, beside the title. */}
      <div className="shared-refs-list" aria-labelledby={`${id}-shared`} role="group">
        {draft.sharedReferenceIds.length === 0 ? (
          <span className="muted">{t('compose.noSharedReferences')}</span>
        ) : (
          draft.sharedReferenceIds.map((refId) => {
            const ref = references.get(refId);
            return ref ? (
              <ReferenceThumb
                key={refId}
                reference={ref}
                onRemove={() => change(draftActions.removeReference(refId))}
              />
            ) : null;
          })
        )}
      </div>
    </details>
  );
}
