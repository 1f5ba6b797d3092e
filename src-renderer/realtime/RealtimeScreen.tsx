import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { useTranslation } from 'react-i18next';
import type { RealtimeJob } from '../../src-shared/realtime-view';
import { useNavigation } from '../app/navigation-store';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { fileToBase64, imageFiles } from '../compose/reference-upload';
import { LibraryVaryInput, varyingFrom } from '../library/LibraryVaryInput';
import { ErrorNotice } from '../shell/ErrorNotice';
import { keyHandler, REALTIME_PROMPT_SHORTCUTS } from '../shell/shortcuts';
import { RealtimeJobCard } from './RealtimeJobCard';
import { useLiveRealtimeJobs } from './use-live-realtime-jobs';
import './realtime.css';

const COMMON = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];
const EXTENDED = ['1:4', '1:8', '4:1', '8:1'];
/** Only the ratios the model takes: the extended set is offered for Flash models alone. */
const ratiosFor = (model: string) => (/flash/i.test(model) ? [...COMMON, ...EXTENDED] : COMMON);

export function RealtimeScreen() {
  const { t } = useTranslation();
  const id = useId();
  const go = useNavigation((s) => s.go);
  // "Vary" from the Library: its image goes as an edit input, read by main.
  const varyFrom = varyingFrom(useNavigation((s) => s.param));
  const models = useStudioQuery('realtime.models', undefined, { retry: false });
  const jobs = useLiveRealtimeJobs();
  // The job appears in the queue by main's events; the mutation keeps only a refusal to queue it.
  const queue = useStudioMutation('realtime.generate');
  const [prompt, setPrompt] = useState('');
  const [model, setModel] = useState('');
  const [ratio, setRatio] = useState('');
  const [tier, setTier] = useState<'1K' | '2K' | '4K'>('1K');
  const [inputs, setInputs] = useState<File[]>([]);
  const [fromJob, setFromJob] = useState<RealtimeJob>();

  useEffect(() => {
    if (!model && models.data?.[0])
      setModel(models.data.find((m) => /flash-image$/.test(m)) ?? models.data[0]);
  }, [model, models.data]);
  useEffect(() => {
    if (ratio && !ratiosFor(model).includes(ratio)) setRatio('');
  }, [model, ratio]);
  const dropzone = useDropzone({
    noClick: true,
    noKeyboard: true,
    onDrop: (files) => setInputs((list) => [...list, ...imageFiles(files)]),
  });
  const previews = useMemo(() => inputs.map((f) => URL.createObjectURL(f)), [inputs]);
  useEffect(() => () => previews.forEach((u) => URL.revokeObjectURL(u)), [previews]);

  // Each image is paid for: the button is off from the click until main has queued the job, so a
  // double click queues one (a deliberate second click, once it is back, queues another).
  const clicked = useRef(false);
  const [sending, setSending] = useState(false);
  async function generate() {
    if (clicked.current) return;
    clicked.current = true;
    setSending(true);
    try {
      await queueJob();
    } catch {
      // The mutation keeps the refusal, and the screen shows it.
    } finally {
      clicked.current = false;
      setSending(false);
    }
  }

  async function queueJob() {
    const encoded = await Promise.all(
      inputs.map(async (f) => ({ name: f.name || 'input.png', dataBase64: await fileToBase64(f) })),
    );
    await queue.mutateAsync({
      prompt,
      model,
      imageSize: tier,
      ...(ratio ? { aspectRatio: ratio } : {}),
      inputs: encoded,
      ...(fromJob ? { fromJobId: fromJob.id } : {}),
      ...(varyFrom ? { fromLibraryIds: [varyFrom] } : {}),
    });
  }

  return (
    <section
      aria-labelledby="screen-title"
      {...dropzone.getRootProps({
        className: `screen realtime${dropzone.isDragActive ? ' drop-active' : ''}`,
      })}
    >
      {/* Hidden: the one control people see and hear is the "Add input images…" button, which opens it. */}
      <input {...dropzone.getInputProps()} accept="image/*" hidden data-testid="rt-input-files" />
      <h1 id="screen-title">{t('realtime.title')}</h1>
      <div className="rt-form card">
        <label className="field">
          <span>{t('realtime.prompt')}</span>
          <textarea
            rows={3}
            value={prompt}
            placeholder={t('realtime.promptPlaceholder')}
            onChange={(e) => setPrompt(e.target.value)}
            onPaste={(e) => {
              const files = imageFiles(e.clipboardData.files);
              if (files.length) {
                e.preventDefault();
                setInputs((list) => [...list, ...files]);
              }
            }}
            onKeyDown={keyHandler(REALTIME_PROMPT_SHORTCUTS, {
              generate: () => (prompt.trim() && model ? void generate() : false),
            })}
            data-testid="rt-prompt"
          />
        </label>
        <div className="field-row">
          <label className="field">
            <span>{t('realtime.model')}</span>
            <select value={model} onChange={(e) => setModel(e.target.value)} data-testid="rt-model">
              {models.data?.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('realtime.ratio')}</span>
            <select value={ratio} onChange={(e) => setRatio(e.target.value)} data-testid="rt-ratio">
              <option value="">{t('realtime.auto')}</option>
              {ratiosFor(model).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('realtime.tier')}</span>
            <select value={tier} onChange={(e) => setTier(e.target.value as typeof tier)}>
              {(['1K', '2K', '4K'] as const).map((x) => (
                <option key={x} value={x}>
                  {x}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="rt-inputs" aria-labelledby={`${id}-inputs`}>
          <span id={`${id}-inputs`} className="label">
            {t('realtime.inputs')}
          </span>
          {fromJob && (
            <span className="notice" data-testid="rt-editing">
              {t('realtime.editing', { prompt: fromJob.prompt })}{' '}
              <button type="button" className="link-button" onClick={() => setFromJob(undefined)}>
                {t('realtime.stopEditing')}
              </button>
            </span>
          )}
          {varyFrom && <LibraryVaryInput id={varyFrom} onRemove={() => go('realtime')} />}
          {previews.map((url, i) => (
            <span className="ref-thumb" key={url}>
              <img src={url} alt={inputs[i]?.name ?? ''} />
              <button
                type="button"
                className="ref-remove"
                aria-label={t('realtime.removeInput', { n: i + 1 })}
                onClick={() => setInputs((l) => l.filter((_, k) => k !== i))}
              >
                ×
              </button>
            </span>
          ))}
          <button type="button" className="small" onClick={dropzone.open}>
            {t('realtime.addInputs')}
          </button>
          {!fromJob && !varyFrom && !inputs.length && (
            <span className="muted">{t('realtime.dropInputs')}</span>
          )}
        </div>
        {models.error && <ErrorNotice error={models.error.toView()} compact />}
        {queue.error && <ErrorNotice error={queue.error.toView()} />}
        <div className="actions">
          <button
            type="button"
            className="primary"
            onClick={() => void generate()}
            disabled={!prompt.trim() || !model || sending}
            data-testid="rt-generate"
          >
            {t('realtime.generate')}
          </button>
        </div>
      </div>

      <h2>{t('realtime.queue')}</h2>
      {jobs.data?.length === 0 && <p className="empty-state">{t('realtime.empty')}</p>}
      <ul className="rt-jobs">
        {jobs.data?.map((job) => (
          <RealtimeJobCard
            key={job.id}
            job={job}
            parent={jobs.data.find((j) => j.id === job.parentJobId)}
            onEditThis={() => {
              setFromJob(job);
              setInputs([]);
              setPrompt('');
              document.querySelector<HTMLTextAreaElement>('[data-testid="rt-prompt"]')?.focus();
            }}
          />
        ))}
      </ul>
    </section>
  );
}
