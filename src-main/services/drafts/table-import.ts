import Papa from 'papaparse';
import type { CellValue } from 'read-excel-file/node';
import { loadSheetReader } from '../heavy-modules';
import { StudioError } from '../../../src-shared/studio-error';
import { logCaught } from '../log/studio-log';

export interface ImportedTable {
  format: 'csv' | 'tsv' | 'xlsx' | 'json' | 'jsonl' | 'txt';
  /** Column names: the header row when there is one, otherwise "Column 1", "Column 2"… */
  columns: string[];
  hasHeader: boolean;
  rows: string[][];
}

const MAX_ROWS = 10_000;

function unreadable(name: string, why: string, cause?: unknown): StudioError {
  // The parser's own words help whoever reads the log, not the designer.
  if (cause !== undefined) logCaught(`table import ${name}`, cause);
  return new StudioError({ code: 'STUDIO_IMPORT_UNREADABLE', message: `${name} could not be read: ${why}` });
}

/** A first row of short labels that look like column names ("prompt", "custom_id", 提示词…). */
function looksLikeHeader(row: string[]): boolean {
  return (
    row.length > 0 &&
    row.every((cell) => cell.length > 0 && cell.length < 40) &&
    row.some((c) => /prompt|id|count|提示|名称|数量|text|description/i.test(c))
  );
}

function fromGrid(format: ImportedTable['format'], grid: string[][]): ImportedTable {
  const rows = grid.filter((r) => r.some((c) => c.trim() !== '')).slice(0, MAX_ROWS + 1);
  const hasHeader = rows.length > 1 && looksLikeHeader(rows[0]!);
  const width = Math.max(1, ...rows.map((r) => r.length));
  const columns = hasHeader
    ? Array.from({ length: width }, (_, i) => rows[0]![i]?.trim() || `Column ${i + 1}`)
    : Array.from({ length: width }, (_, i) => `Column ${i + 1}`);
  return { format, columns, hasHeader, rows: (hasHeader ? rows.slice(1) : rows).slice(0, MAX_ROWS) };
}

function fromObjects(format: 'json' | 'jsonl', name: string, records: unknown[]): ImportedTable {
  const columns: string[] = [];
  const objects = records.map((r) => {
    if (typeof r === 'string') return { prompt: r };
    if (!r || typeof r !== 'object' || Array.isArray(r))
      throw unreadable(name, 'each entry must be an object or a string');
    return r as Record<string, unknown>;
  });
  for (const o of objects) for (const k of Object.keys(o)) if (!columns.includes(k)) columns.push(k);
  const cell = (v: unknown) =>
    v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return {
    format,
    columns,
    hasHeader: true,
    rows: objects.slice(0, MAX_ROWS).map((o) => columns.map((c) => cell(o[c]))),
  };
}

function xlsxCellText(value: CellValue | null): string {
  if (value === null) return '';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/**
 * Reads a prompt table in any of the formats designers keep them in. The rows come back raw;
 * the user maps columns before anything enters the grid.
 */
export async function readTable(name: string, data: Buffer): Promise<ImportedTable> {
  const lower = name.toLowerCase();
  if (lower.endsWith('.xlsx')) {
    let sheet: (CellValue | null)[][];
    try {
      // The first sheet, as the values Excel shows (a formula's last result, rich text as its text).
      sheet = await (await loadSheetReader())(data);
    } catch (err) {
      throw unreadable(name, 'it is not an Excel workbook (.xlsx), or it is damaged', err);
    }
    return fromGrid(
      'xlsx',
      sheet.map((row) => row.map(xlsxCellText)),
    );
  }
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) {
    const records = text
      .split(/\r?\n/)
      .filter((l) => l.trim())
      .map((line, i) => {
        try {
          return JSON.parse(line) as unknown;
        } catch {
          throw unreadable(name, `line ${i + 1} is not JSON`);
        }
      });
    return fromObjects('jsonl', name, records);
  }
  if (lower.endsWith('.json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw unreadable(name, 'it is not valid JSON', err);
    }
    const list = Array.isArray(parsed)
      ? parsed
      : parsed && typeof parsed === 'object' && Array.isArray((parsed as { items?: unknown }).items)
        ? (parsed as { items: unknown[] }).items
        : undefined;
    if (!list) throw unreadable(name, 'expected an array of rows, or {"items": [...]}');
    return fromObjects('json', name, list);
  }
  if (lower.endsWith('.txt') || lower.endsWith('.md')) {
    return {
      format: 'txt',
      columns: ['Prompt'],
      hasHeader: false,
      rows: text
        .split(/\r?\n/)
        .filter((l) => l.trim())
        .slice(0, MAX_ROWS)
        .map((l) => [l.trim()]),
    };
  }
  const tsv = lower.endsWith('.tsv') || (!lower.endsWith('.csv') && text.split('\n', 1)[0]!.includes('\t'));
  const result = Papa.parse<string[]>(text, { delimiter: tsv ? '\t' : '', skipEmptyLines: 'greedy' });
  if (result.errors.length && result.data.length === 0)
    throw unreadable(name, 'no rows could be read from it', result.errors[0]!.message);
  return fromGrid(tsv ? 'tsv' : 'csv', result.data);
}

/** The grid as CSV, with the columns the import reads back. */
export function draftToCsv(items: { customId: string; prompt: string; outputCount: number }[]): string {
  return `\uFEFF${Papa.unparse({
    fields: ['custom_id', 'prompt', 'output_count'],
    data: items.map((i) => [i.customId, i.prompt, i.outputCount]),
  })}\r\n`;
}
