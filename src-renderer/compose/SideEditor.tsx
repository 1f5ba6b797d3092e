import { useTranslation } from 'react-i18next';
import { GATEWAY_LIMITS, type DraftIssue } from '../../src-shared/draft-rules';
import { useCompose } from '../shared/compose-store';
import { draftActions } from '../shared/draft-actions';
import { useGridSelection } from './grid-selection';

const encoder = new TextEncoder();

/**
 * A long prompt written at length beside the grid: a tall editor, its size in UTF-8 bytes against the
 * gateway's limit (what the limit counts, not characters: a Chinese character is three bytes), and
 * the row's check as the grid shows it.
 */
export function SideEditor({ row, issues }: { row: number; issues: DraftIssue[] | undefined }) {
  const { t } = useTranslation();
  const item = useCompose((s) => s.draft?.items[row]);
  const change = useCompose((s) => s.change);
  // Closed, the focus goes back to the row's prompt cell in the grid, where the person came from.
  const close = () => {
    useGridSelection.getState().openSide(undefined);
    document.querySelector<HTMLElement>(`[data-row="${row}"][data-col="1"]`)?.focus();
  };
  if (!item) return null;
  const bytes = encoder.encode(item.prompt).length;
  const over = bytes > GATEWAY_LIMITS.maxPromptBytes;
  const n = row + 1;
  return (
    <aside
      className="side-editor card"
      aria-labelledby="side-editor-title"
      data-testid="side-editor"
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <div className="side-editor-head">
        <h2 id="side-editor-title">{t('side.title', { n })}</h2>
        <button type="button" className="icon" aria-label={t('common.close')} onClick={close}>
          ×
        </button>
      </div>
      <textarea
        aria-label={`${t('compose.rowLabel', { n })} ${t('compose.colPrompt')} (${t('side.editor')})`}
        value={item.prompt}
        // Opened on purpose, to write in.
        autoFocus
        onChange={(e) => change(draftActions.setItem(row, { prompt: e.target.value }), `prompt:${row}`)}
        data-testid="side-editor-text"
      />
      <p className={over ? 'over' : 'muted'} data-testid="side-editor-bytes">
        {t('side.bytes', {
          bytes: bytes.toLocaleString(),
          limit: GATEWAY_LIMITS.maxPromptBytes.toLocaleString(),
        })}
      </p>
      {issues?.length ? (
        <ul className="row-issues" data-testid="side-editor-check">
          {issues.map((issue, i) => (
            <li key={i}>{t(`compose.issue.${issue.code}`, issue.params)}</li>
          ))}
        </ul>
      ) : (
        <p className="ok" data-testid="side-editor-check">
          ✓ {t('side.ready')}
        </p>
      )}
    </aside>
  );
}
