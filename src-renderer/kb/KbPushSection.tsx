import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KbMode, KbRow } from '../../src-shared/kb-view';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { KbPreview } from './KbPreview';
import { KbRowSource } from './KbRowSource';
import { KbUploads } from './KbUploads';
import { useLiveKbPushes } from './use-live-kb-pushes';

/** Rows into the knowledge base: where they come from, what main makes of them, and the upload. */
export function KbPushSection() {
  const { t } = useTranslation();
  const id = useId();
  const profiles = useStudioQuery('profiles.list');
  const settings = useStudioQuery('settings.get');
  const pushes = useLiveKbPushes();
  const active = profiles.data?.find((p) => p.id === settings.data?.activeProfileId);
  const [mode, setMode] = useState<KbMode>('index');
  const [qaPrompt, setQaPrompt] = useState('');
  const [kbId, setKbId] = useState('');
  const [rows, setRows] = useState<KbRow[]>([]);
  // Main's verdict on each row (too long, empty, duplicate) depends on the rows and the mode alone;
  // the last verdict stays shown while the next is asked for, so an edit does not blank the preview.
  const check = useStudioQuery(
    'kb.check',
    { rows, mode },
    { enabled: rows.length > 0, placeholderData: keepPreviousData },
  );
  // The upload's progress arrives by main's events into the list of uploads.
  const push = useStudioMutation('kb.push');

  useEffect(() => setKbId((k) => k || active?.defaultKbId || ''), [active?.defaultKbId]);

  const checked = rows.length ? (check.data ?? []) : [];
  const valid = checked.filter((r) => !r.over && !r.duplicate).length;

  function upload() {
    push.mutate(
      { rows, mode, kbId, ...(mode === 'qa' && qaPrompt ? { prompt: qaPrompt } : {}), chunkSize: 50 },
      { onSuccess: () => setRows([]) },
    );
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
      <KbRowSource onAdd={(row) => setRows((r) => [...r, row])} onReplace={setRows} />
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
              onClick={upload}
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
      {check.error && <ErrorNotice error={check.error.toView()} />}
      {push.error && <ErrorNotice error={push.error.toView()} />}
      {!!pushes.data?.length && <KbUploads pushes={pushes.data} />}
    </section>
  );
}
