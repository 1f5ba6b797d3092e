import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import { referenceLimitOf, validateDraft, type DraftIssue } from '../../src-shared/draft-rules';
import { splitDraft } from '../../src-shared/draft-split';
import { StudioError } from '../../src-shared/studio-error';
import { useStudio } from '../app/studio-context';
import { queryKey, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { COMPOSE_SCREEN_SHORTCUTS } from '../shell/shortcuts';
import { useScreenShortcuts } from '../shell/use-screen-shortcuts';
import { emptyDraft, useCompose } from './compose-store';
import { draftActions } from './draft-actions';
import { DraftsMenu } from './DraftsMenu';
import { draftWriterFor } from './draft-writer';
import { ImportDialog, type ImportedRow } from './ImportDialog';
import { KnowledgeInsert } from './KnowledgeInsert';
import { PromptGrid, type PromptGridHandle } from './PromptGrid';
import { ReferenceThumb } from './ReferenceThumb';
import { imageFiles, uploadReferences } from './reference-upload';
import { TemplateDialog } from './TemplateDialog';
import { TotalsBar } from './TotalsBar';
import { useDraftSubmission } from './use-draft-submission';

/** Whether a key event is for the grid's undo: not in a dialog, nor in a text field outside the grid. */
function belongsToGrid(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return true;
  if (target.closest('dialog')) return false;
  const field = target.matches('input, textarea, select, [contenteditable="true"]');
  return !field || target.closest('.prompt-grid') !== null;
}

/** Saves the draft shortly after each change, so a crash or a restart never loses a grid. */
function useAutosave(draft: Draft | null): 'saved' | 'saving' {
  const studio = useStudio();
  const client = useQueryClient();
  const [state, setState] = useState<'saved' | 'saving'>('saved');
  useEffect(() => {
    if (!draft) return;
    setState('saving');
    const timer = setTimeout(() => {
      void draftWriterFor(studio)
        .save(draft)
        .then(() => {
          setState('saved');
          void client.invalidateQueries({ queryKey: queryKey('drafts.list') });
        });
    }, 400);
    return () => clearTimeout(timer);
  }, [draft, studio, client]);
  return state;
}

/** Issues per row, with stable arrays while they do not change, so unchanged rows do not re-render. */
function useIssuesByRow(draft: Draft | null) {
  const cache = useRef(new Map<string, DraftIssue[]>());
  return useMemo(() => {
    if (!draft) return { report: undefined, byRow: new Map<number, DraftIssue[]>() };
    const report = validateDraft(draft);
    const byRow = new Map<number, DraftIssue[]>();
    for (const row of report.rows) {
      const key = JSON.stringify(row.issues);
      let stable = cache.current.get(key);
      if (!stable) cache.current.set(key, (stable = row.issues));
      byRow.set(row.index, stable);
    }
    return { report, byRow };
  }, [draft]);
}

export function ComposeScreen() {
  const { t } = useTranslation();
  const id = useId();
  const studio = useStudio();
  const { draft, load, change, undo, redo, past, future } = useCompose();
  const models = useStudioQuery('batches.models', undefined, { retry: false });
  const drafts = useStudioQuery('drafts.list');
  const saveState = useAutosave(draft);
  const { report, byRow } = useIssuesByRow(draft);
  const [dialog, setDialog] = useState<'import' | 'template' | 'drafts'>();
  const [notices, setNotices] = useState<string[]>([]);
  const [oversize, setOversize] = useState<Draft['references']>([]);
  const [error, setError] = useState<StudioError>();
  const submission = useDraftSubmission(draft);
  // The row a file dialog was opened for; used once, by the pick it was opened for.
  const pickRow = useRef<number | undefined>(undefined);
  const grid = useRef<PromptGridHandle>(null);
  const lastInvalid = useRef(-1);

  // The grid comes back as it was: the newest draft, or a fresh one.
  useEffect(() => {
    if (draft || !drafts.data) return;
    const newest = drafts.data[0];
    if (!newest) return load(emptyDraft(models.data?.[0] ?? ''));
    void studio
      .call('drafts.get', { id: newest.id })
      .then((d) => load(d ?? emptyDraft(models.data?.[0] ?? '')));
  }, [draft, drafts.data, load, models.data, studio]);

  useEffect(() => {
    if (draft && !draft.model && models.data?.[0]) change((d) => ({ ...d, model: models.data![0]! }));
  }, [draft, models.data, change]);

  // The grid's undo, from anywhere on the screen but a dialog or a text field outside the grid:
  // there Ctrl+Z is the field's own undo.
  useScreenShortcuts(
    COMPOSE_SCREEN_SHORTCUTS,
    { undo, redo },
    { inTextFields: true, ignore: (e) => !belongsToGrid(e.target) },
  );

  const addFiles = useCallback(
    async (files: File[], row?: number) => {
      const images = imageFiles(files);
      if (!images.length) return;
      const outcome = await uploadReferences(studio, images);
      if (outcome.added.length) change(draftActions.addReferences(outcome.added, row));
      setNotices(outcome.converted.map((name) => t('compose.converted', { name })));
      setOversize(outcome.oversize);
      if (outcome.errors[0])
        setError(
          new StudioError({
            code: outcome.errors[0].code,
            message: `${outcome.errors[0].name}: ${outcome.errors[0].message}`,
          }),
        );
    },
    [studio, change, t],
  );

  const dropzone = useDropzone({
    noClick: true,
    noKeyboard: true,
    // Every drop comes here, also one on a row (so the screen's highlight always ends): a row
    // takes it for itself, anywhere else it goes to every row. Only a file dialog's pick uses pickRow.
    onDrop: (files, _rejected, event) => {
      const picked = pickRow.current;
      pickRow.current = undefined;
      if (event?.type === 'drop') {
        const onRow = (event.target as Element | null)?.closest?.<HTMLElement>('[data-drop-row]');
        void addFiles(files, onRow ? Number(onRow.dataset.dropRow) : undefined);
      } else {
        void addFiles(files, picked);
      }
    },
    onFileDialogCancel: () => {
      pickRow.current = undefined;
    },
  });

  const pickFiles = useCallback(
    (row?: number) => {
      pickRow.current = row;
      dropzone.open();
    },
    [dropzone],
  );

  const onGridFiles = useCallback((files: File[], row?: number) => void addFiles(files, row), [addFiles]);

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

  const references = new Map(draft.references.map((r) => [r.id, r]));
  const parts =
    report &&
    !report.ok &&
    report.batch.some((b) =>
      [
        'TOO_MANY_IMAGES',
        'TOO_MANY_ITEMS',
        'TOO_MANY_REFERENCES_TOTAL',
        'REFERENCES_TOO_LARGE_TOTAL',
      ].includes(b.code),
    )
      ? splitDraft(draft)
      : undefined;

  async function split() {
    const pieces = splitDraft(draft!);
    // Through the one writer: an autosave of the whole draft, pending or under way, cannot land after
    // the delete and bring it back beside its parts.
    const writer = draftWriterFor(studio);
    for (const piece of pieces) await writer.save(piece);
    await writer.remove(draft!.id);
    load(pieces[0]!);
    setNotices([t('compose.splitDone', { count: pieces.length })]);
  }

  async function exportCsv() {
    const csv = await studio.call('drafts.exportCsv', { draft: draft! });
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${draft!.name || 'prompts'}.csv`;
    a.click();
    URL.revokeObjectURL(url);
  }

  function importRows(rows: ImportedRow[], replace: boolean) {
    change((d) =>
      draftActions.appendRows(
        rows.map((r) => ({
          prompt: r.prompt,
          outputCount: r.outputCount,
          customId: r.customId,
          referenceIds: [],
        })),
      )(replace ? { ...d, items: [] } : d),
    );
    setDialog(undefined);
  }

  return (
    <section
      aria-labelledby="screen-title"
      {...dropzone.getRootProps({
        className: `screen compose${dropzone.isDragActive ? ' drop-active' : ''}`,
      })}
    >
      {/* Out of the accessibility tree and the tab order: the one control people see and hear is the
          "Add reference images…" button (and each row's "+"), which opens it. */}
      <input
        {...dropzone.getInputProps()}
        accept="image/*"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        data-testid="reference-input"
      />
      <div className="compose-head">
        <h1 id="screen-title">{t('compose.title')}</h1>
        <span className="muted save-state" role="status" data-testid="save-state">
          {saveState === 'saving' ? t('compose.saving') : t('compose.saved')}
        </span>
      </div>

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
            {!models.data?.includes(draft.model) && draft.model && (
              <option value={draft.model}>{draft.model}</option>
            )}
            {models.data?.map((m) => (
              <option key={m} value={m}>
                {t('compose.modelRefs', { model: m, count: referenceLimitOf(m) })}
              </option>
            ))}
          </select>
        </label>
        <div className="toolbar-buttons">
          <button type="button" onClick={undo} disabled={!past.length} title="Ctrl+Z">
            {t('compose.undo')}
          </button>
          <button type="button" onClick={redo} disabled={!future.length} title="Ctrl+Shift+Z">
            {t('compose.redo')}
          </button>
          <button type="button" onClick={() => setDialog('import')} data-testid="open-import">
            {t('compose.import')}
          </button>
          <button type="button" onClick={() => setDialog('template')} data-testid="open-template">
            {t('compose.template')}
          </button>
          <button type="button" onClick={() => void exportCsv()} disabled={!draft.items.length}>
            {t('compose.export')}
          </button>
          <button type="button" onClick={() => pickFiles(undefined)}>
            {t('compose.addReferences')}
          </button>
          <button
            type="button"
            onClick={() => setDialog(dialog === 'drafts' ? undefined : 'drafts')}
            aria-expanded={dialog === 'drafts'}
          >
            {t('compose.drafts')}
          </button>
        </div>
      </div>

      {dialog === 'drafts' && (
        <DraftsMenu
          currentId={draft.id}
          model={models.data?.[0] ?? ''}
          onOpen={(d) => (load(d), setDialog(undefined))}
        />
      )}

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

      {notices.map((n) => (
        <p key={n} className="notice" role="status">
          {n}
        </p>
      ))}
      {oversize.map((ref) => (
        <p key={ref.id} className="notice warn">
          {t('compose.oversize', { name: ref.name })}{' '}
          <button
            type="button"
            onClick={() =>
              void studio
                .call('references.downscale', { reference: ref })
                .then(({ converted: _c, ...small }) => {
                  change(draftActions.replaceReference(ref.id, small));
                  setOversize((list) => list.filter((r) => r.id !== ref.id));
                })
            }
          >
            {t('compose.downscale')}
          </button>
        </p>
      ))}

      <KnowledgeInsert />
      {draft.items.length === 0 && <p className="empty-state">{t('compose.empty')}</p>}
      <PromptGrid
        ref={grid}
        draft={draft}
        issuesByRow={byRow}
        change={change}
        onFiles={onGridFiles}
        onPickFiles={pickFiles}
      />

      <TotalsBar report={report} submission={submission} onGoToInvalid={goToInvalid} />

      {parts && parts.length > 1 && (
        <div className="notice split-offer" role="status" data-testid="split-offer">
          {t('compose.splitOffer', { count: parts.length })}{' '}
          <button type="button" className="primary" onClick={() => void split()}>
            {t('compose.splitAction', { count: parts.length })}
          </button>
        </div>
      )}
      {error && <ErrorNotice error={error.toView()} />}
      {submission.error && <ErrorNotice error={submission.error.toView()} />}
      {dialog === 'import' && <ImportDialog onImport={importRows} onClose={() => setDialog(undefined)} />}
      {dialog === 'template' && (
        <TemplateDialog
          onAdd={(prompts) => {
            change(draftActions.insertPrompts(draft.items.length, prompts));
            setDialog(undefined);
          }}
          onClose={() => setDialog(undefined)}
        />
      )}
    </section>
  );
}
