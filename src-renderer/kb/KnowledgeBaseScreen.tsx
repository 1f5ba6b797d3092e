import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KbCheckedRow, KbMode, KbPush, KbRow, KbSearchResult } from '../../src-shared/kb-view';
import { StudioError } from '../../src-shared/studio-error';
import { useStudio } from '../app/studio-context';
import { queryKey, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';

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
      studio.on('kb.pushProgress', (push) =>
        client.setQueryData<KbPush[]>(queryKey('kb.pushes'), (list) =>
          list?.some((p) => p.id === push.id)
            ? list.map((p) => (p.id === push.id ? push : p))
            : [push, ...(list ?? [])],
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
              total: checked.length,
              over: checked.filter((r) => r.over).length,
              duplicates: checked.filter((r) => r.duplicate).length,
            })}
          </p>
          <table className="preview-table">
            <thead>
              <tr>
                <th>{t('kb.question')}</th>
                <th>{t('kb.answer')}</th>
                <th>{t('kb.limit')}</th>
              </tr>
            </thead>
            <tbody>
              {checked.slice(0, 20).map((row, i) => (
                <tr key={i} className={row.over || row.duplicate ? 'row-flagged' : undefined}>
                  <td>{row.q.slice(0, 200)}</td>
                  <td>{row.a.slice(0, 200)}</td>
                  <td>
                    {t('kb.tokens', { tokens: row.tokens, limit: row.limit })}
                    {row.duplicate && <span className="error-text"> · {t('kb.duplicate')}</span>}
                    {row.over && row.split && (
                      <span className="error-text">
                        {' '}
                        · {t('kb.over', { count: row.split.length })}{' '}
                        <button
                          type="button"
                          className="small"
                          onClick={() =>
                            setRows((list) =>
                              list.flatMap((r, k) =>
                                k === i ? row.split!.map((part) => ({ q: part, a: r.a })) : [r],
                              ),
                            )
                          }
                        >
                          {t('kb.applySplit')}
                        </button>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
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
      {!!pushes.data?.length && (
        <>
          <h3>{t('kb.uploads')}</h3>
          <ul className="kb-pushes">
            {pushes.data.slice(0, 10).map((push) => (
              <li key={push.id} data-testid="kb-push" data-state={push.state}>
                <span className="badge">{t(`kb.state_${push.state}`)}</span> {push.kbId} · {push.mode} ·{' '}
                {t('kb.uploadLine', { sent: push.chunksSent, chunks: push.chunks, inserted: push.inserted })}
                <span
                  className="progress"
                  role="progressbar"
                  aria-label={push.id}
                  aria-valuemin={0}
                  aria-valuemax={push.chunks}
                  aria-valuenow={push.chunksSent}
                >
                  <span
                    className="progress-ok"
                    style={{ width: `${(push.chunksSent / Math.max(1, push.chunks)) * 100}%` }}
                  />
                </span>
                {(push.state === 'failed' || push.state === 'paused') && (
                  <button
                    type="button"
                    className="small"
                    onClick={() => void studio.call('kb.resume', { id: push.id })}
                  >
                    {push.state === 'paused' ? t('kb.resume') : t('kb.retryFailed')}
                  </button>
                )}
                {push.error && <ErrorNotice error={push.error} compact />}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function SearchSection() {
  const { t } = useTranslation();
  const id = useId();
  const studio = useStudio();
  const history = useStudioQuery('kb.history');
  const profiles = useStudioQuery('profiles.list');
  const settings = useStudioQuery('settings.get');
  const active = profiles.data?.find((p) => p.id === settings.data?.activeProfileId);
  const [prompts, setPrompts] = useState<string[]>([]);
  const [draft, setDraft] = useState('');
  const [similarity, setSimilarity] = useState(0.4);
  const [limit, setLimit] = useState(5);
  const [appId, setAppId] = useState('');
  const [result, setResult] = useState<KbSearchResult>();
  const [error, setError] = useState<StudioError>();
  useEffect(() => setAppId((x) => x || active?.defaultAppId || ''), [active?.defaultAppId]);

  async function search() {
    const list = draft.trim() ? [...prompts, draft.trim()] : prompts;
    if (!list.length) return;
    setPrompts(list);
    setDraft('');
    setError(undefined);
    try {
      setResult(await studio.call('kb.search', { prompts: list, similarity, limit, appId }));
      void history.refetch();
    } catch (err) {
      setError(StudioError.from(err));
    }
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
            onKeyDown={(e) => e.key === 'Enter' && void search()}
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
        onClick={() => void search()}
        disabled={!prompts.length && !draft.trim()}
        data-testid="kb-search"
      >
        {t('kb.search')}
      </button>
      {error && <ErrorNotice error={error.toView()} />}
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
