import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import { referenceLimitOf } from '../../src-shared/draft-rules';
import { useStudioMutation } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { useCompose } from '../shared/compose-store';
import { RunModelsPicker } from './RunModelsPicker';

export type ComposePanel = 'import' | 'template' | 'drafts' | 'find' | 'parts';

/** Offers the browser a file to save, as a download of the page. */
function saveText(text: string, name: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/** The draft's name and model, undo and redo, and the ways prompts and references come in or go out. */
export function ComposeToolbar({
  draft,
  models,
  panel,
  onPanel,
  onPickFiles,
}: {
  draft: Draft;
  models: string[] | undefined;
  panel: ComposePanel | undefined;
  onPanel(panel: ComposePanel | undefined): void;
  onPickFiles(): void;
}) {
  const { t } = useTranslation();
  const { change, undo, redo, past, future } = useCompose();
  const exportCsv = useStudioMutation('drafts.exportCsv');
  return (
    <>
      <div className="toolbar">
        <label className="inline-field">
          <span>{t('compose.taskName')}</span>
          <input
            value={draft.name}
            placeholder={t('compose.taskNamePlaceholder')}
            onChange={(e) => change((d) => ({ ...d, name: e.target.value }), 'name')}
            data-testid="task-name"
          />
        </label>
        <label className="inline-field">
          <span>{t('compose.model')}</span>
          <select
            value={draft.model}
            onChange={(e) => change((d) => ({ ...d, model: e.target.value }))}
            data-testid="model-select"
          >
            {!models?.includes(draft.model) && draft.model && (
              <option value={draft.model}>{draft.model}</option>
            )}
            {models?.map((m) => (
              <option key={m} value={m}>
                {t('compose.modelRefs', { model: m, count: referenceLimitOf(m) })}
              </option>
            ))}
          </select>
        </label>
        {/* The buttons begin the second line, the other models of a run at its end. */}
        <span className="line-break" aria-hidden="true" />
        <div className="toolbar-buttons">
          <button type="button" onClick={undo} disabled={!past.length} title="Ctrl+Z">
            {t('compose.undo')}
          </button>
          <button type="button" onClick={redo} disabled={!future.length} title="Ctrl+Shift+Z">
            {t('compose.redo')}
          </button>
          <button type="button" onClick={() => onPanel('find')} title="Ctrl+H" data-testid="open-find">
            {t('compose.findReplace')}
          </button>
          <button type="button" onClick={() => onPanel('import')} data-testid="open-import">
            {t('compose.import')}
          </button>
          <button type="button" onClick={() => onPanel('template')} data-testid="open-template">
            {t('compose.template')}
          </button>
          <button
            type="button"
            onClick={() => onPanel('parts')}
            disabled={draft.items.length < 2}
            data-testid="open-find-parts"
          >
            {t('compose.findParts')}
          </button>
          <button
            type="button"
            onClick={() =>
              exportCsv.mutate(
                { draft },
                {
                  onSuccess: (csv) =>
                    saveText(csv, `${draft.name || 'prompts'}.csv`, 'text/csv;charset=utf-8'),
                },
              )
            }
            disabled={!draft.items.length || exportCsv.isPending}
          >
            {t('compose.export')}
          </button>
          <button type="button" onClick={onPickFiles}>
            {t('compose.addReferences')}
          </button>
          <button
            type="button"
            onClick={() => onPanel(panel === 'drafts' ? undefined : 'drafts')}
            aria-expanded={panel === 'drafts'}
          >
            {t('compose.drafts')}
          </button>
        </div>
        <RunModelsPicker primary={draft.model} models={models} />
      </div>
      {exportCsv.error && <ErrorNotice error={exportCsv.error.toView()} compact />}
    </>
  );
}
