import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudioMutation } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { useCompose } from '../shared/compose-store';
import { useComposePrefs } from './compose-prefs';
import { draftActions } from '../shared/draft-actions';

/**
 * Looks up the knowledge base (a house style, say) and appends a hit to every row or to one row.
 * Folded, it is one line beside the shared references.
 */
export function KnowledgeInsert() {
  const { t } = useTranslation();
  const { draft, change } = useCompose();
  // A search is kept in the knowledge base's history, so the history is fetched again after it.
  const search = useStudioMutation('kb.search', { invalidates: ['kb.history'] });
  const [query, setQuery] = useState('');
  const [row, setRow] = useState(1);
  const open = useComposePrefs((s) => s.kbOpen);
  const toggle = useComposePrefs((s) => s.toggle);
  if (!draft) return null;

  const append = (text: string, index?: number) =>
    change((d) => ({
      ...d,
      items: d.items.map((item, i) =>
        index === undefined || i === index
          ? draftActions.setItem(i, {
              prompt: `${item.prompt.trimEnd()}${item.prompt.trim() ? ', ' : ''}${text}`,
            })(d).items[i]!
          : item,
      ),
    }));

  return (
    // Folded to its one-line title by default, and as the person last left it.
    <details
      className="kb-insert"
      open={open}
      onToggle={(e) => e.currentTarget.open !== open && toggle('kbOpen')}
    >
      <summary>{t('kb.insertTitle')}</summary>
      <div className="field-row">
        <label className="field grow">
          <span className="sr-only">{t('kb.insertSearch')}</span>
          <input
            value={query}
            placeholder={t('kb.insertSearch')}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || !query.trim()) return;
              e.preventDefault();
              search.mutate({ prompts: [query.trim()], similarity: 0.2, limit: 5 });
            }}
            data-testid="kb-insert-query"
          />
        </label>
        <label className="inline-field">
          <span>{t('kb.insertRow')}</span>
          <input
            type="number"
            min={1}
            max={Math.max(1, draft.items.length)}
            value={row}
            onChange={(e) => setRow(Number(e.target.value) || 1)}
            style={{ width: 70 }}
          />
        </label>
      </div>
      {search.error && <ErrorNotice error={search.error.toView()} compact />}
      <ul className="kb-insert-hits">
        {search.data?.rawSearch.map((hit) => {
          const text = hit.a || hit.q;
          return (
            <li key={hit.id}>
              <span>{text}</span>
              <button
                type="button"
                className="small"
                onClick={() => append(text)}
                disabled={!draft.items.length}
              >
                {t('kb.insertAll')}
              </button>
              <button
                type="button"
                className="small"
                onClick={() => append(text, row - 1)}
                disabled={!draft.items[row - 1]}
              >
                {t('kb.insertRow')} {row}
              </button>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
