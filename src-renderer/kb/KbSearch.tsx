import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KbSearchResult } from '../../src-shared/kb-view';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { KB_SEARCH_SHORTCUTS, keyHandler } from '../shell/shortcuts';

/** The search tester: a conversation (only its last entry is searched), threshold, limit and history. */
export function SearchSection() {
  const { t } = useTranslation();
  const id = useId();
  const history = useStudioQuery('kb.history');
  const profiles = useStudioQuery('profiles.list');
  const settings = useStudioQuery('settings.get');
  const active = profiles.data?.find((p) => p.id === settings.data?.activeProfileId);
  const [prompts, setPrompts] = useState<string[]>([]);
  const [draft, setDraft] = useState('');
  const [similarity, setSimilarity] = useState(0.4);
  const [limit, setLimit] = useState(5);
  const [appId, setAppId] = useState('');
  // A search is kept in the history, so the history is fetched again after it.
  const searching = useStudioMutation('kb.search', { invalidates: ['kb.history'] });
  // The answer shown: the last search's, or a past one picked from the history.
  const [result, setResult] = useState<KbSearchResult>();
  useEffect(() => setAppId((x) => x || active?.defaultAppId || ''), [active?.defaultAppId]);

  function search() {
    const list = draft.trim() ? [...prompts, draft.trim()] : prompts;
    if (!list.length) return;
    setPrompts(list);
    setDraft('');
    searching.mutate({ prompts: list, similarity, limit, appId }, { onSuccess: setResult });
  }

  return (
    <section className="card kb-section" aria-labelledby={`${id}-search`}>
      <h2 id={`${id}-search`}>{t('kb.searchTester')}</h2>
      <p className="muted">{t('kb.conversation')}</p>
      <ol className="kb-conversation">
        {prompts.map((p, i) => (
          <li key={i}>
            {p}{' '}
            <button
              type="button"
              className="link-button"
              aria-label={t('kb.removePrompt', { n: i + 1 })}
              onClick={() => setPrompts((l) => l.filter((_, k) => k !== i))}
            >
              ×
            </button>
          </li>
        ))}
      </ol>
      <div className="field-row">
        <label className="field grow">
          <span className="sr-only">{t('kb.promptPlaceholder')}</span>
          <input
            value={draft}
            placeholder={t('kb.promptPlaceholder')}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={keyHandler(KB_SEARCH_SHORTCUTS, { search: () => search() })}
            data-testid="kb-query"
          />
        </label>
        <button
          type="button"
          onClick={() => draft.trim() && (setPrompts((l) => [...l, draft.trim()]), setDraft(''))}
        >
          {t('kb.addPrompt')}
        </button>
      </div>
      <div className="field-row">
        <label className="field">
          <span>{t('kb.similarity', { value: similarity.toFixed(2) })}</span>
          <input
            type="range"
            min={0}
            max={1}
            step={0.01}
            value={similarity}
            onChange={(e) => setSimilarity(Number(e.target.value))}
            data-testid="kb-similarity"
          />
        </label>
        <label className="field">
          <span>{t('kb.limit')}</span>
          <input
            type="number"
            min={1}
            max={100}
            value={limit}
            onChange={(e) => setLimit(Math.max(1, Number(e.target.value) || 1))}
          />
        </label>
        <label className="field">
          <span>{t('kb.appId')}</span>
          <input value={appId} onChange={(e) => setAppId(e.target.value)} />
        </label>
      </div>
      <button
        type="button"
        className="primary"
        onClick={search}
        disabled={!prompts.length && !draft.trim()}
        data-testid="kb-search"
      >
        {t('kb.search')}
      </button>
      {searching.error && <ErrorNotice error={searching.error.toView()} />}
      {result && (
        <div className="kb-result" data-testid="kb-result">
          <h3>{t('kb.hits')}</h3>
          {result.rawSearch.length === 0 && <p className="muted">{t('kb.noHits')}</p>}
          <ol>
            {result.rawSearch.map((hit) => (
              <li key={hit.id} data-testid="kb-hit">
                <strong>{hit.q}</strong>
                <p className="muted">{hit.a}</p>
              </li>
            ))}
          </ol>
          <h3>{t('kb.systemPrompt')}</h3>
          <pre className="kb-pre">{result.userSystemPrompt}</pre>
          <h3>{t('kb.quotePrompt')}</h3>
          <pre className="kb-pre">{result.quotePrompt}</pre>
        </div>
      )}
      {!!history.data?.length && (
        <details>
          <summary>{t('kb.history')}</summary>
          <ul>
            {history.data.slice(0, 30).map((h) => (
              <li key={h.id}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => (
                    setPrompts(h.prompts),
                    setSimilarity(h.similarity),
                    setLimit(h.limit),
                    setResult(h)
                  )}
                >
                  {h.prompts[h.prompts.length - 1]} · {h.rawSearch.length}
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
