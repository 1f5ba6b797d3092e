import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import {
  GATEWAY_LIMITS,
  referenceLimitOf,
  validateDraft,
  type DraftIssue,
} from '../../src-shared/draft-rules';
import { splitDraft } from '../../src-shared/draft-split';
import type { MethodOutput } from '../../src-shared/studio-api';
import { StudioError } from '../../src-shared/studio-error';
import { useNavigation } from '../app/navigation-store';
import { useStudio } from '../app/studio-context';
import { queryKey, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { emptyDraft, useCompose } from './compose-store';
import { draftActions } from './draft-actions';
import { ImportDialog, type ImportedRow } from './ImportDialog';
import { KnowledgeInsert } from './KnowledgeInsert';
import { PromptGrid } from './PromptGrid';
import { ReferenceThumb } from './ReferenceThumb';
import { imageFiles, uploadReferences } from './reference-upload';
import { TemplateDialog } from './TemplateDialog';

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Saves the draft shortly after each change, so a crash or a restart never loses a grid. */
function useAutosave(draft: Draft | null): 'saved' | 'saving' {
  const studio = useStudio();
  const client = useQueryClient();
  const [state, setState] = useState<'saved' | 'saving'>('saved');
  useEffect(() => {
    if (!draft) return;
    setState('saving');
    const timer = setTimeout(() => {
      void studio.call('drafts.save', { draft }).then(() => {
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
  const go = useNavigation((s) => s.go);
  const { draft, load, change, undo, redo, past, future } = useCompose();
  const models = useStudioQuery('batches.models', undefined, { retry: false });
  const drafts = useStudioQuery('drafts.list');
  const saveState = useAutosave(draft);
  const { report, byRow } = useIssuesByRow(draft);
  const [dialog, setDialog] = useState<'import' | 'template' | 'drafts'>();
  const [notices, setNotices] = useState<string[]>([]);
  const [oversize, setOversize] = useState<Draft['references']>([]);
  const [error, setError] = useState<StudioError>();
  const [submitted, setSubmitted] = useState<MethodOutput<'batches.submit'>>();
  const [submitting, setSubmitting] = useState(false);
  const pickRow = useRef<number | undefined>(undefined);

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

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey)) return;
      if (e.key === 'z' && !e.shiftKey) {
        e.preventDefault();
        undo();
      } else if ((e.key === 'z' && e.shiftKey) || e.key === 'y' || e.key === 'Z') {
        e.preventDefault();
        redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo, redo]);

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
    onDrop: (files) => void addFiles(files, pickRow.current),
  });

  const pickFiles = useCallback(
    (row?: number) => {
      pickRow.current = row;
      dropzone.open();
    },
    [dropzone],
  );

  const onGridFiles = useCallback((files: File[], row?: number) => void addFiles(files, row), [addFiles]);

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
  const overLimit = (report?.totals.images ?? 0) > GATEWAY_LIMITS.maxOutputImages;

  async function submit() {
    setError(undefined);
    setSubmitted(undefined);
    setSubmitting(true);
    try {
      setSubmitted(await studio.call('batches.submit', { draft: draft! }));
      if ('Notification' in window && Notification.permission === 'default')
        void Notification.requestPermission();
    } catch (err) {
      setError(StudioError.from(err));
    } finally {
      setSubmitting(false);
    }
  }

  async function split() {
    const pieces = splitDraft(draft!);
    for (const piece of pieces) await studio.call('drafts.save', { draft: piece });
    await studio.call('drafts.delete', { id: draft!.id });
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
      <input
        {...dropzone.getInputProps()}
        aria-label={t('compose.addReferences')}
        accept="image/*"
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
        <div className="card drafts-menu">
          <button
            type="button"
            className="primary"
            onClick={() => (load(emptyDraft(models.data?.[0] ?? '')), setDialog(undefined))}
          >
            {t('compose.newDraft')}
          </button>
          <ul>
            {drafts.data?.map((d) => (
              <li key={d.id} className={d.id === draft.id ? 'current' : undefined}>
                <span>
                  {d.name || d.id} · {t('compose.rowsCount', { count: d.rows })}
                </span>
                <button
                  type="button"
                  onClick={() =>
                    void studio
                      .call('drafts.get', { id: d.id })
                      .then((x) => x && (load(x), setDialog(undefined)))
                  }
                >
                  {t('compose.openDraft')}
                </button>
                {d.id !== draft.id && (
                  <button
                    type="button"
                    className="danger"
                    onClick={() =>
                      void studio.call('drafts.delete', { id: d.id }).then(() => drafts.refetch())
                    }
                  >
                    {t('compose.deleteDraft')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
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
        draft={draft}
        issuesByRow={byRow}
        change={change}
        onFiles={onGridFiles}
        onPickFiles={pickFiles}
      />

      <div className="totals-bar" data-testid="totals-bar">
        <span>{t('compose.totalsRows', { count: report?.totals.rows ?? 0 })}</span>
        <span className={overLimit ? 'over' : undefined} data-testid="totals-images">
          {t('compose.totalsImages', {
            count: report?.totals.images ?? 0,
            limit: GATEWAY_LIMITS.maxOutputImages,
          })}
        </span>
        <span
          className={
            (report?.totals.referenceBytes ?? 0) > GATEWAY_LIMITS.maxReferenceBytesPerJob ? 'over' : undefined
          }
        >
          {t('compose.totalsRefs', {
            size: mib(report?.totals.referenceBytes ?? 0),
            limit: mib(GATEWAY_LIMITS.maxReferenceBytesPerJob),
          })}
        </span>
        {report && report.rows.length > 0 && (
          <span className="over">{t('compose.fixFirst', { count: report.rows.length })}</span>
        )}
        {report?.batch
          .filter((b) => !['NO_ITEMS'].includes(b.code))
          .map((b) => (
            <span key={b.code} className="over">
              {t(`compose.issue.${b.code}`, b.params)}
            </span>
          ))}
        <button
          type="button"
          className="primary"
          disabled={!report?.ok || submitting}
          onClick={() => void submit()}
          data-testid="submit-batch"
        >
          {submitting ? t('compose.submitting') : t('compose.submit')}
        </button>
      </div>

      {parts && parts.length > 1 && (
        <div className="notice split-offer" role="status" data-testid="split-offer">
          {t('compose.splitOffer', { count: parts.length })}{' '}
          <button type="button" className="primary" onClick={() => void split()}>
            {t('compose.splitAction', { count: parts.length })}
          </button>
        </div>
      )}
      {error && <ErrorNotice error={error.toView()} />}
      {submitted?.batch && (
        <div className="notice success-box" role="status" data-testid="submit-result">
          {t('compose.submitted', {
            estimate: submitted.batch.estimatedCost.toFixed(4),
            hold: submitted.batch.holdAmount.toFixed(4),
          })}{' '}
          <button type="button" onClick={() => go('batches', submitted.batch!.id)}>
            {t('compose.viewBatch')}
          </button>
        </div>
      )}

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
