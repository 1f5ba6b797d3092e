import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../shell/Modal';
import type { MethodOutput } from '../../src-shared/studio-api';
import { useStudioMutation } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { fileToBase64 } from '../shared/reference-upload';

type Table = MethodOutput<'drafts.readTable'>;
export interface ImportedRow {
  prompt: string;
  customId?: string;
  outputCount: number;
}

function guess(columns: string[], patterns: RegExp[]): number {
  for (const pattern of patterns) {
    const i = columns.findIndex((c) => pattern.test(c));
    if (i >= 0) return i;
  }
  return -1;
}

/** Import with the column mapping shown first: nothing enters the grid until the user says so. */
export function ImportDialog({
  onImport,
  onClose,
}: {
  onImport(rows: ImportedRow[], replace: boolean): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const read = useStudioMutation('drafts.readTable');
  const [table, setTable] = useState<Table>();
  const [map, setMap] = useState({ prompt: 0, id: -1, count: -1 });

  async function choose(file: File | undefined) {
    if (!file) return;
    const result = await read
      .mutateAsync({ name: file.name, dataBase64: await fileToBase64(file) })
      // The mutation keeps the error, and the dialog shows it.
      .catch(() => undefined);
    if (!result) return;
    setTable(result);
    const prompt = guess(result.columns, [/^prompt$/i, /prompt|提示|text|description|描述/i]);
    setMap({
      prompt: prompt >= 0 ? prompt : 0,
      id: guess(result.columns, [/^custom_id$/i, /^(id|custom.?id|编号|名称|name)$/i]),
      count: guess(result.columns, [/^output_count$/i, /count|数量|张数|n$/i]),
    });
  }

  const rows: ImportedRow[] = (table?.rows ?? [])
    .map((r) => ({
      prompt: (r[map.prompt] ?? '').trim(),
      customId: map.id >= 0 ? r[map.id]?.trim() || undefined : undefined,
      outputCount: map.count >= 0 ? Math.max(1, Number(r[map.count]) || 1) : 1,
    }))
    .filter((r) => r.prompt);

  const select = (key: keyof typeof map, label: string, optional: boolean) => (
    <label className="field">
      <span>{label}</span>
      <select
        value={map[key]}
        onChange={(e) => setMap((m) => ({ ...m, [key]: Number(e.target.value) }))}
        data-testid={`map-${key}`}
      >
        {optional && <option value={-1}>{t('importer.none')}</option>}
        {table!.columns.map((c, i) => (
          <option key={i} value={i}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <Modal title={t('importer.title')} onClose={onClose}>
      <label className="field">
        <span>{t('importer.chooseFile')}</span>
        <input
          type="file"
          accept=".csv,.tsv,.xlsx,.json,.jsonl,.ndjson,.txt"
          onChange={(e) => void choose(e.target.files?.[0])}
          data-testid="import-file"
        />
      </label>
      {read.error && <ErrorNotice error={read.error.toView()} />}
      {table && (
        <>
          <p className="muted">
            {t('importer.found', { count: table.rows.length, format: table.format.toUpperCase() })}
          </p>
          <div className="field-row">
            {select('prompt', t('importer.promptColumn'), false)}
            {select('id', t('importer.idColumn'), true)}
            {select('count', t('importer.countColumn'), true)}
          </div>
          <h3>{t('importer.preview')}</h3>
          <table className="preview-table" data-testid="import-preview">
            <thead>
              <tr>
                <th>{t('compose.colId')}</th>
                <th>{t('compose.colPrompt')}</th>
                <th>{t('compose.colCount')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, 5).map((r, i) => (
                <tr key={i}>
                  <td>{r.customId ?? '—'}</td>
                  <td>{r.prompt}</td>
                  <td>{r.outputCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={!rows.length}
          onClick={() => onImport(rows, false)}
          data-testid="import-append"
        >
          {t('importer.append', { count: rows.length })}
        </button>
        <button type="button" disabled={!rows.length} onClick={() => onImport(rows, true)}>
          {t('importer.replace')}
        </button>
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </Modal>
  );
}
