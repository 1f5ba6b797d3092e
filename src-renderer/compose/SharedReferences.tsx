import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import { useCompose } from './compose-store';
import { draftActions } from './draft-actions';
import { ReferenceThumb } from './ReferenceThumb';

/** The references every row gets: those dropped on the screen rather than on one row. */
export function SharedReferences({ draft }: { draft: Draft }) {
  const { t } = useTranslation();
  const id = useId();
  const change = useCompose((s) => s.change);
  const references = new Map(draft.references.map((r) => [r.id, r]));
  return (
    <div className="shared-refs" aria-labelledby={`${id}-shared`}>
      <span id={`${id}-shared`} className="label">
        {t('compose.sharedReferences')}
      </span>
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
  );
}
