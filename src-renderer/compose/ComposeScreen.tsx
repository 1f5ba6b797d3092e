import { memo, Suspense, useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyScreen } from '../app/lazy-screens';
import { ErrorNotice } from '../shell/ErrorNotice';
import { useGridSelection } from './grid-selection';
import { ComposeToolbar, type ComposePanel } from './ComposeToolbar';
import { useCompose } from '../shared/compose-store';
import { draftActions } from '../shared/draft-actions';
import type { ImportedRow } from './ImportDialog';
import { KnowledgeInsert } from './KnowledgeInsert';
import { OversizeNotice } from './OversizeNotice';
import { PromptGrid, type PromptGridHandle } from './PromptGrid';
import { SharedReferences } from './SharedReferences';
import { SplitOffer } from './SplitOffer';
import { TotalsBar } from './TotalsBar';
import { useAutosave } from './use-autosave';
import { useComposeShortcuts } from './use-compose-shortcuts';
import { useDraftRestore } from './use-draft-restore';
import { useDraftSubmission } from './use-draft-submission';
import { useIssuesByRow } from './use-issues-by-row';
import { useReferenceDrop } from './use-reference-drop';
import { SETTLE_MS, useSettled } from './use-settled';
import { runModelsOf, useRunModels } from './run-models';
import './compose.css';

// What a button (or the side editor's key) opens is fetched when the window is first idle (or at its first opening), not
// with the screen: the first screen's script stays under its budget (issue 36).
const DraftsMenu = lazyScreen(() => import('./DraftsMenu'), 'DraftsMenu');
const ImportDialog = lazyScreen(() => import('./ImportDialog'), 'ImportDialog');
const FindReplace = lazyScreen(() => import('./FindReplace'), 'FindReplace');
const TemplateDialog = lazyScreen(() => import('./TemplateDialog'), 'TemplateDialog');
const SideEditor = lazyScreen(() => import('./SideEditor'), 'SideEditor');
const FindPartsDialog = lazyScreen(() => import('./FindPartsDialog'), 'FindPartsDialog');

/** Drawn again only when the checked draft or its report changes, not with each keystroke's render. */
const CheckedSplitOffer = memo(SplitOffer);

/**
 * Compose: the page over the draft being edited. Its parts each do one thing: the toolbar, shared
 * references, the grid, the totals and submit bar, the split offer and the import and template dialogs;
 * the hooks restore, save, check and submit the draft and take in reference images.
 */
export function ComposeScreen() {
  const { t } = useTranslation();
  const { draft, load, change } = useCompose();
  const models = useDraftRestore();
  const saveState = useAutosave(draft);
  // The checks of every row, the totals and the split offer follow the draft a moment later, in a
  // render React can interrupt: a keystroke in a grid of 2,000 rows is drawn within the frame, not
  // after the whole draft has been checked again.
  const checked = useDeferredValue(draft);
  const { report, byRow } = useIssuesByRow(checked);
  const settled = useSettled(checked, SETTLE_MS);
  const extraModels = useRunModels((s) => s.extra);
  // Only models this profile offers: one ticked before a profile switch is not sent to.
  const runModels = useMemo(
    () =>
      runModelsOf(
        draft?.model ?? '',
        extraModels.filter((m) => models.data?.includes(m)),
      ),
    [draft?.model, extraModels, models.data],
  );
  const submission = useDraftSubmission(draft, runModels, settled);
  const [panel, setPanel] = useState<ComposePanel>();
  const [notices, setNotices] = useState<string[]>([]);
  const drop = useReferenceDrop(change, setNotices);
  const grid = useRef<PromptGridHandle>(null);
  const lastInvalid = useRef(-1);
  const sideRow = useGridSelection((s) => s.sideRow);
  const onSplit = useCallback((count: number) => setNotices([t('compose.splitDone', { count })]), [t]);
  useComposeShortcuts(useCallback(() => setPanel('find'), []));

  /** Takes the user to the next row that needs attention, after the last one shown, wrapping round. */
  const goToInvalid = useCallback(() => {
    const rows = (report?.rows ?? []).map((r) => r.index).sort((a, b) => a - b);
    if (!rows.length) return;
    const next = rows.find((i) => i > lastInvalid.current) ?? rows[0]!;
    lastInvalid.current = next;
    grid.current?.focusRow(next);
  }, [report]);

  if (!draft) {
    return (
      <section className="screen" aria-labelledby="screen-title">
        <h1 id="screen-title">{t('compose.title')}</h1>
        <p className="muted">{t('common.loading')}</p>
      </section>
    );
  }

  function importRows(rows: ImportedRow[], replace: boolean) {
    const items = rows.map((r) => ({ ...r, referenceIds: [] }));
    change((d) => draftActions.appendRows(items)(replace ? { ...d, items: [] } : d));
    setPanel(undefined);
  }

  return (
    <section
      aria-labelledby="screen-title"
      {...drop.dropzone.getRootProps({
        className: `screen compose${drop.dropzone.isDragActive ? ' drop-active' : ''}`,
      })}
    >
      {/* Out of the accessibility tree and the tab order: the one control people see and hear is the
          "Add reference images…" button (and each row's "+"), which opens it. */}
      <input
        {...drop.dropzone.getInputProps()}
        accept="image/*"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        data-testid="reference-input"
      />
      <div className="compose-top">
        <div className="compose-head">
          <h1 id="screen-title">{t('compose.title')}</h1>
          <span className="muted save-state" role="status" data-testid="save-state">
            {saveState === 'saving' ? t('compose.saving') : t('compose.saved')}
          </span>
        </div>
        <ComposeToolbar
          draft={draft}
          models={models.data}
          panel={panel}
          onPanel={setPanel}
          onPickFiles={() => drop.pickFiles(undefined)}
        />
      </div>
      {panel === 'drafts' && (
        <Suspense fallback={null}>
          <DraftsMenu
            currentId={draft.id}
            model={models.data?.[0] ?? ''}
            onOpen={(d) => (load(d), setPanel(undefined))}
          />
        </Suspense>
      )}

      {notices.map((n) => (
        <p key={n} className="notice" role="status">
          {n}
        </p>
      ))}
      {drop.oversize.map((ref) => (
        <OversizeNotice key={ref.id} reference={ref} onDone={() => drop.downscaled(ref.id)} />
      ))}

      <div className="compose-panels">
        <SharedReferences draft={draft} />
        <KnowledgeInsert />
      </div>
      {draft.items.length === 0 && <p className="empty-state">{t('compose.empty')}</p>}
      <PromptGrid
        ref={grid}
        draft={draft}
        issuesByRow={byRow}
        change={change}
        onFiles={drop.onGridFiles}
        onPickFiles={drop.pickFiles}
      />

      <TotalsBar report={report} submission={submission} models={runModels} onGoToInvalid={goToInvalid} />
      <CheckedSplitOffer draft={settled ?? draft} report={report} onSplit={onSplit} />
      {drop.error && <ErrorNotice error={drop.error.toView()} />}
      {submission.error && <ErrorNotice error={submission.error.toView()} />}
      <Suspense fallback={null}>
        {sideRow !== undefined && <SideEditor row={sideRow} issues={byRow.get(sideRow)} />}
      </Suspense>
      <Suspense fallback={null}>
        {panel === 'import' && <ImportDialog onImport={importRows} onClose={() => setPanel(undefined)} />}
        {panel === 'find' && <FindReplace onClose={() => setPanel(undefined)} />}
        {panel === 'parts' && (
          <FindPartsDialog
            draft={draft}
            onApply={(parts) => {
              change(draftActions.setParts(parts));
              setPanel(undefined);
            }}
            onClose={() => setPanel(undefined)}
          />
        )}
        {panel === 'template' && (
          <TemplateDialog
            onAdd={(prompts, parts) => {
              change(draftActions.insertPrompts(draft.items.length, prompts, parts));
              setPanel(undefined);
            }}
            onClose={() => setPanel(undefined)}
          />
        )}
      </Suspense>
    </section>
  );
}
