import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KbRow } from '../../src-shared/kb-view';
import { useStudioMutation } from '../app/studio-queries';
import { fileToBase64 } from '../shared/reference-upload';
import { ErrorNotice } from '../shell/ErrorNotice';

type Source = 'manual' | 'paste' | 'csv';

/** Offers the browser a file to save, as a download of the page. */
function saveText(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/** Where the rows to upload come from: typed one by one, pasted from a sheet, or read from a CSV file. */
export function KbRowSource({
  onAdd,
  onReplace,
}: {
  onAdd(row: KbRow): void;
  onReplace(rows: KbRow[]): void;
}) {
  const { t } = useTranslation();
  const [source, setSource] = useState<Source>('manual');
  const [q, setQ] = useState('');
  const [a, setA] = useState('');
  const [pasted, setPasted] = useState('');
  const readCsv = useStudioMutation('kb.readCsv');
  const template = useStudioMutation('kb.template');

  async function read(file: File | undefined) {
    if (!file) return;
    // Its bytes, not file.text(): that reads every file as UTF-8, and a GB18030 CSV from Chinese
    // Excel would come out garbled without a word.
    readCsv.mutate({ name: file.name, dataBase64: await fileToBase64(file) }, { onSuccess: onReplace });
  }

  return (
    <>
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
          <button type="button" disabled={!q.trim()} onClick={() => (onAdd({ q, a }), setQ(''), setA(''))}>
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
              onReplace(
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
              onChange={(e) => void read(e.target.files?.[0])}
              data-testid="kb-csv"
            />
          </label>
          <button
            type="button"
            onClick={() =>
              template.mutate({}, { onSuccess: (csv) => saveText(csv, 'knowledge-base-template.csv') })
            }
          >
            {t('kb.template')}
          </button>
        </div>
      )}
      {readCsv.error && <ErrorNotice error={readCsv.error.toView()} />}
    </>
  );
}
