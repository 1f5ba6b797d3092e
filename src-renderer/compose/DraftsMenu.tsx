import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import { useStudio } from '../app/studio-context';
import { useStudioFetch, useStudioQuery } from '../app/studio-queries';
import { emptyDraft } from '../shared/compose-store';
import { draftWriterFor } from './draft-writer';

/** The saved drafts: start a new one, open one, or delete one other than the open draft. */
export function DraftsMenu({
  currentId,
  model,
  onOpen,
}: {
  currentId: string;
  /** The model a new draft starts with. */
  model: string;
  onOpen(draft: Draft): void;
}) {
  const { t } = useTranslation();
  const studio = useStudio();
  const fetch = useStudioFetch();
  const drafts = useStudioQuery('drafts.list');
  return (
    <div className="card drafts-menu">
      <button type="button" className="primary" onClick={() => onOpen(emptyDraft(model))}>
        {t('compose.newDraft')}
      </button>
      <ul>
        {drafts.data?.map((d) => (
          <li key={d.id} className={d.id === currentId ? 'current' : undefined}>
            <span>
              {d.name || d.id} · {t('compose.rowsCount', { count: d.rows })}
            </span>
            <button
              type="button"
              onClick={() => void fetch('drafts.get', { id: d.id }).then((x) => x && onOpen(x))}
            >
              {t('compose.openDraft')}
            </button>
            {d.id !== currentId && (
              <button
                type="button"
                className="danger"
                // Through the draft writer, not a mutation: a delete must not overtake a pending save.
                onClick={() =>
                  void draftWriterFor(studio)
                    .remove(d.id)
                    .then(() => drafts.refetch())
                }
              >
                {t('compose.deleteDraft')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
