import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KbCheckedRow, KbMode, KbPush, KbRow } from '../../src-shared/kb-view';
import { StudioError } from '../../src-shared/studio-error';
import { useStudio } from '../app/studio-context';
import { queryKey, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { KbPreview } from './KbPreview';
import { SearchSection } from './KbSearch';
import { KbUploads } from './KbUploads';

function PushSection() {
  const { t } = useTranslation();
  const id = useId();
  const studio = useStudio();
  const client = useQueryClient();
  const profiles = useStudioQuery('profiles.list');
  const settings = useStudioQuery('settings.get');
  const pushes = useStudioQuery('kb.pushes');
  const active = profiles.data?.find((p) => p.id === settings.data?.activeProfileId);
  const [mode, setMode] = useState<KbMode>('index');
  const [qaPrompt, setQaPrompt] = useState('');
  const [kbId, setKbId] = useState('');
  const [source, setSource] = useState<'manual' | 'paste' | 'csv'>('manual');
  const [rows, setRows] = useState<KbRow[]>([]);
  const [checked, setChecked] = useState<KbCheckedRow[]>([]);
  const [q, setQ] = useState('');
  const [a, setA] = useState('');
  const [pasted, setPasted] = useState('');
  const [error, setError] = useState<StudioError>();

  useEffect(() => setKbId((k) => k || active?.defaultKbId || ''), [active?.defaultKbId]);
  useEffect(() => {
    let live = true;
    if (!rows.length) setChecked([]);
    else void studio.call('kb.check', { rows, mode }).then((c) => live && setChecked(c));
    return () => {
      live = false;
    };
  }, [rows, mode, studio]);
  useEffect(
    () =>
      // Progress goes into the list of the profile that sent the upload, whichever is active now, and
      // only into a list already fetched: a one-row list would pass for that profile's whole history.
      studio.on('kb.pushProgress', (push) =>
        client.setQueryData<KbPush[]>(queryKey('kb.pushes', undefined, push.profileId), (list) =>
          !list
            ? list
            : list.some((p) => p.id === push.id)
              ? list.map((p) => (p.id === push.id ? push : p))
              : [push, ...list],
        ),
      ),
    [studio, client],
  );

  const valid = checked.filter((r) => !r.over && !r.duplicate).length;

  async function readCsv(file: File | undefined) {
    if (!file) return;
    try {
      setRows(await studio.call('kb.readCsv', { text: await file.text() }));
    } catch (err) {
      setError(StudioError.from(err));
    }
  }

  async function downloadTemplate() {
    const csv = await studio.call('kb.template', {});
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'knowledge-base-template.csv';
    link.click();
    URL.revokeObjectURL(url);
  }

  async function upload() {
    setError(undefined);
    try {
      await studio.call('kb.push', {
        rows,
        mode,
        kbId,
        ...(mode === 'qa' && qaPrompt ? { prompt: qaPrompt } : {}),
        chunkSize: 50,
      });
      setRows([]);
    } catch (err) {
      setError(StudioError.from(err));
    }
  }

  return (
    <section className="card kb-section" aria-labelledby={`${id}-push`}>
      <h2 id={`${id}-push`}>{t('kb.push')}</h2>
      <div className="field-row">
        <label className="field">
          <span>{t('kb.mode')}</span>
          <select value={mode} onChange={(e) => setMode(e.target.value as KbMode)} data-testid="kb-mode">
            <option value="index">{t('kb.modeIndex')}</option>
            <option value="qa">{t('kb.modeQa')}</option>
          </select>
        </label>
        <label className="field">
          <span>{t('kb.kbId')}</span>
          <input value={kbId} onChange={(e) => setKbId(e.target.value)} data-testid="kb-id" />
        </label>
      </div>
      {mode === 'qa' && (
        <label className="field">
          <span>{t('kb.qaPrompt')}</span>
          <input value={qaPrompt} onChange={(e) => setQaPrompt(e.target.value)} />
        </label>
      )}
      <div className="actions" role="group" aria-label={t('kb.source')}>
        {(['manual', 'paste', 'csv'] as const).map((s) => (
          <button
            key={s}
            type="button"
            className={source === s ? 'primary' : undefined}
            aria-pressed={source === s}
            onClick={() => setSource(s)}
          >
            {t(`kb.${s}`)}
          </button>
        ))}
      </div>
      {source === 'manual' && (
        <div className="field-row">
          <label className="field">
            <span>{t('kb.question')}</span>
            <textarea rows={2} value={q} onChange={(e) => setQ(e.target.value)} />
          </label>
          <label className="field">
            <span>{t('kb.answer')}</span>
            <textarea rows={2} value={a} onChange={(e) => setA(e.target.value)} />
          </label>
          <button
            type="button"
            disabled={!q.trim()}
            onClick={() => (setRows((r) => [...r, { q, a }]), setQ(''), setA(''))}
          >
            {t('kb.addRow')}
          </button>
        </div>
      )}
      {source === 'paste' && (
        <label className="field">
          <span>{t('kb.pasteHelp')}</span>
          <textarea
            rows={5}
            value={pasted}
            onChange={(e) => setPasted(e.target.value)}
            onBlur={() =>
              setRows(
                pasted
                  .split(/\r?\n/)
                  .filter((l) => l.trim())
                  .map((l) => {
                    const [question, ...answer] = l.split('\t');
                    return { q: question ?? '', a: answer.join('\t') };
                  }),
              )
            }
          />
        </label>
      )}
      {source === 'csv' && (
        <div className="field-row">
          <label className="field">
            <span>{t('kb.chooseCsv')}</span>
            <input
              type="file"
              accept=".csv,text/csv"
              onChange={(e) => void readCsv(e.target.files?.[0])}
              data-testid="kb-csv"
            />
          </label>
          <button type="button" onClick={() => void downloadTemplate()}>
            {t('kb.template')}
          </button>
        </div>
      )}
      {checked.length > 0 && (
        <>
          <h3>{t('kb.preview')}</h3>
          <p className="muted" data-testid="kb-preview-count">
            {t('kb.previewCount', {
              valid,
              count: checked.length,
              // A row without a question is not "over the limit": it is counted as what it is.
              over: checked.filter((r) => r.over && r.problem !== 'empty').length,
              empty: checked.filter((r) => r.problem === 'empty').length,
              duplicates: checked.filter((r) => r.duplicate).length,
            })}
          </p>
          <KbPreview
            checked={checked}
            onSplit={(index, parts) => setRows((list) => list.flatMap((r, k) => (k === index ? parts : [r])))}
          />
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={!valid || !kbId}
              onClick={() => void upload()}
              data-testid="kb-upload"
            >
              {t('kb.upload', { count: valid })}
            </button>
            <button type="button" onClick={() => setRows([])}>
              {t('kb.clear')}
            </button>
          </div>
        </>
      )}
      {error && <ErrorNotice error={error.toView()} />}
      {!!pushes.data?.length && <KbUploads pushes={pushes.data} />}
    </section>
  );
}

export function KnowledgeBaseScreen() {
  const { t } = useTranslation();
  return (
    <section className="screen kb" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('kb.title')}</h1>
      <div className="kb-columns">
        <PushSection />
        <SearchSection />
      </div>
    </section>
  );
}
