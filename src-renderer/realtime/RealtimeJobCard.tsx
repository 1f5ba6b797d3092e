import { useState } from 'react';
import { StudioError } from '../../src-shared/studio-error';
import { ReferenceTargetDialog } from '../shared/ReferenceTargetDialog';
import { useReuse } from '../shared/use-reuse';
import { useTranslation } from 'react-i18next';
import type { RealtimeJob } from '../../src-shared/realtime-view';
import { imagePaths } from '../../src-shared/image-paths';
import { imageUrl } from '../app/image-url';
import { useStudioMutation } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';

function JobImage({ job, alt }: { job: RealtimeJob; alt: string }) {
  if (job.state !== 'done') return null;
  return (
    <img
      className="rt-result"
      src={imageUrl(imagePaths.realtime(job.id, 'result', 0))}
      alt={alt}
      data-testid={`rt-image-${job.id}`}
    />
  );
}

function InputThumb({ job, index, alt }: { job: RealtimeJob; index: number; alt: string }) {
  return (
    <img
      className="rt-source-thumb"
      src={imageUrl(imagePaths.realtime(job.id, 'input', index))}
      alt={alt}
      data-testid="rt-source-image"
    />
  );
}

/**
 * What an edit was made from: the images it was given, and for "Edit this", the prompt of the result
 * it changes, so a chain of edits can be read back.
 */
function JobSource({ job, parent }: { job: RealtimeJob; parent?: RealtimeJob }) {
  const { t } = useTranslation();
  if (!job.inputs) return null;
  const chained = job.parentJobId !== undefined;
  return (
    <div className="rt-source" data-testid="rt-source">
      <span className="muted small">
        {chained
          ? parent
            ? t('realtime.editOf', { prompt: parent.prompt })
            : t('realtime.editOfEarlier')
          : t('realtime.madeFrom')}
      </span>
      {Array.from({ length: job.inputs }, (_, i) => (
        <InputThumb
          key={i}
          job={job}
          index={i}
          alt={
            chained && i === 0
              ? t('realtime.sourceAlt', { prompt: parent?.prompt ?? '' })
              : t('realtime.inputAlt', { n: i + 1 })
          }
        />
      ))}
    </div>
  );
}

/** One generation: its prompt, what it was made from, its state, and the result with what to do next. */
export function RealtimeJobCard({
  job,
  parent,
  onEditThis,
}: {
  job: RealtimeJob;
  parent?: RealtimeJob;
  onEditThis(): void;
}) {
  const { t } = useTranslation();
  // The job's new state (cancelled, saved) arrives by main's events; these keep a refusal.
  const cancel = useStudioMutation('realtime.cancel');
  const save = useStudioMutation('realtime.save');
  const [reuseError, setReuseError] = useState<StudioError>();
  const [reuseNote, setReuseNote] = useState<string>();
  const [choosingRow, setChoosingRow] = useState(false);
  const reuse = useReuse({ onMessage: setReuseNote, onError: setReuseError });
  const refusal = cancel.error ?? save.error ?? reuseError;
  return (
    <li className={`card rt-job state-${job.state}`} data-testid="rt-job" data-state={job.state}>
      <div className="batch-head">
        <strong className="rt-job-prompt">{job.prompt}</strong>
        <span
          className={`badge${job.state === 'done' ? ' status-completed' : job.state === 'failed' ? ' status-failed' : ''}`}
        >
          {t(`realtime.state_${job.state}`, { attempt: job.attempt })}
        </span>
        <span className="muted small">
          {job.model} · {job.imageSize}
          {job.aspectRatio ? ` · ${job.aspectRatio}` : ''}
          {job.inputs ? ` · ${t('realtime.inputs')}: ${job.inputs}` : ''}
        </span>
      </div>
      <JobSource job={job} parent={parent} />
      {(job.state === 'queued' || job.state === 'running') && (
        <div className="actions">
          <span
            className="progress indeterminate"
            role="progressbar"
            aria-label={t(`realtime.state_${job.state}`, { attempt: job.attempt })}
          />
          <button type="button" disabled={cancel.isPending} onClick={() => cancel.mutate({ id: job.id })}>
            {t('realtime.cancel')}
          </button>
        </div>
      )}
      {job.error && <ErrorNotice error={job.error} />}
      {refusal && <ErrorNotice error={refusal.toView()} compact />}
      {job.state === 'done' && job.result && (
        <div className="rt-result-row">
          <JobImage job={job} alt={t('realtime.resultAlt', { prompt: job.prompt })} />
          <div>
            {job.result.text && (
              <p>
                <span className="muted">{t('realtime.modelText')}: </span>
                {job.result.text}
              </p>
            )}
            {job.result.modelVersion && job.result.modelVersion !== job.model && (
              <p className="muted small">
                {t('realtime.modelVersion', { version: job.result.modelVersion, model: job.model })}
              </p>
            )}
            <p className="muted small mono">
              {t('realtime.attempts', { count: job.result.attempts })} · {job.result.requestId}
            </p>
            <div className="actions">
              <button type="button" className="primary" onClick={onEditThis} data-testid="rt-edit-this">
                {t('realtime.editThis')}
              </button>
              <button
                type="button"
                disabled={!!job.savedId || save.isPending}
                onClick={() => save.mutate({ id: job.id })}
                data-testid="rt-save"
              >
                {job.savedId ? t('realtime.saved') : t('realtime.save')}
              </button>
              <button type="button" onClick={() => void reuse.sendPrompt(job.prompt)}>
                {t('realtime.toCompose')}
              </button>
              <button type="button" onClick={() => setChoosingRow(true)} data-testid="rt-use-as-reference">
                {t('reuse.useAsReference')}
              </button>
            </div>
            {reuseNote && (
              <p className="notice" role="status">
                {reuseNote}
              </p>
            )}
            {choosingRow && (
              <ReferenceTargetDialog
                onChoose={(row) => {
                  setChoosingRow(false);
                  void reuse.addReference({ realtimeJobId: job.id }, row);
                }}
                onError={setReuseError}
                onClose={() => setChoosingRow(false)}
              />
            )}
          </div>
        </div>
      )}
    </li>
  );
}
