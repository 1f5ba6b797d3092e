import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../shell/Modal';
import { useCompose } from '../shared/compose-store';
import { applyReplacements, replacementsIn } from './find-replace';

/** How many changed prompts the preview lists; the count covers them all. */
const PREVIEW_ROWS = 50;

/**
 * Find and replace across the prompts (Ctrl+H): the count and the changed rows are shown before
 * anything changes, and Replace all is one undo step.
 */
export function FindReplace({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const items = useCompose((s) => s.draft?.items ?? []);
  const change = useCompose((s) => s.change);
  const [query, setQuery] = useState('');
  const [replacement, setReplacement] = useState('');
  const [matchCase, setMatchCase] = useState(false);
  const [wholeWord, setWholeWord] = useState(false);
  // Typing in Find stays quick on 2,000 rows: the preview follows a moment later.
  const deferredQuery = useDeferredValue(query);
  const found = useMemo(
    () => replacementsIn(items, deferredQuery, replacement, { matchCase, wholeWord }),
    [items, deferredQuery, replacement, matchCase, wholeWord],
  );
  const matches = found.reduce((n, r) => n + r.matches, 0);

  return (
    <Modal title={t('find.title')} onClose={onClose} testId="find-replace">
      <div className="find-fields">
        <label className="field">
          <span>{t('find.find')}</span>
          <input
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="find-query"
            data-autofocus
          />
        </label>
        <label className="field">
          <span>{t('find.replace')}</span>
          <input
            value={replacement}
            onChange={(e) => setReplacement(e.target.value)}
            data-testid="find-replacement"
          />
        </label>
        <label className="inline-field">
          <input type="checkbox" checked={matchCase} onChange={(e) => setMatchCase(e.target.checked)} />
          {t('find.matchCase')}
        </label>
        <label className="inline-field" title={t('find.wholeWordHelp')}>
          <input
            type="checkbox"
            checked={wholeWord}
            onChange={(e) => setWholeWord(e.target.checked)}
            data-testid="find-whole-word"
          />
          {t('find.wholeWord')}
        </label>
      </div>
      <p className="muted small">{t('find.wholeWordHelp')}</p>
      <p role="status" data-testid="find-count">
        {query
          ? `${t('find.matches', { count: matches })} ${t('find.inPrompts', { count: found.length })}`
          : t('find.typeToFind')}
      </p>
      {found.length > 0 && (
        <ol className="find-preview" data-testid="find-preview" aria-label={t('find.preview')}>
          {found.slice(0, PREVIEW_ROWS).map((r) => (
            <li key={r.row}>
              <span className="muted">{t('compose.rowLabel', { n: r.row + 1 })}</span>
              <del>{r.before}</del>
              <ins>{r.after}</ins>
            </li>
          ))}
          {found.length > PREVIEW_ROWS && (
            <li className="muted">{t('find.more', { count: found.length - PREVIEW_ROWS })}</li>
          )}
        </ol>
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          {t('common.close')}
        </button>
        <button
          type="button"
          className="primary"
          disabled={!found.length || query !== deferredQuery}
          onClick={() => {
            change(applyReplacements(found));
            onClose();
          }}
          data-testid="find-apply"
        >
          {t('find.apply', { count: found.length })}
        </button>
      </div>
    </Modal>
  );
}
