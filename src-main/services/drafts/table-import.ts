import Papa from 'papaparse';
import type { CellValue } from 'read-excel-file/node';
import { loadSheetReader } from '../lazy-imports';
import { StudioError } from '../../../src-shared/studio-error';
import { logCaught } from '../log/studio-log';
import { tableText } from './table-text';

export interface ImportedTable {
  format: 'csv' | 'tsv' | 'xlsx' | 'json' | 'jsonl' | 'txt';
  /** Column names: the header row when there is one, otherwise "Column 1", "Column 2"… */
  columns: string[];
  hasHeader: boolean;
  rows: string[][];
}

export const MAX_ROWS = 10_000;

function unreadable(name: string, why: string, cause?: unknown): StudioError {
  // The parser's own words help whoever reads the log, not the designer.
  if (cause !== undefined) logCaught(`table import ${name}`, cause);
  return new StudioError({ code: 'STUDIO_IMPORT_UNREADABLE', message: `${name} could not be read: ${why}` });
}

/**
 * More rows than one import takes is said, never cut silently: the rows after the limit would be
 * prompts lost without a word.
 */
function checkRowCount(name: string, count: number): void {
  if (count > MAX_ROWS)
    throw new StudioError({
      code: 'STUDIO_IMPORT_TOO_MANY_ROWS',
      message: `${name} has ${count} rows; one import takes at most ${MAX_ROWS}. Split it into smaller files.`,
    });
}

/**
 * A column label as a word ("prompt", "custom_id", "Prompt (EN)", 提示词), not inside one: the
 * "id" of "vivid" or the "count" of "country" made a prompt the header, and it was never imported.
 */
const LABEL = /(?:^|[^a-z])(?:prompts?|id|count|text|description)(?:$|[^a-z])/i;
const CJK_LABEL = /^.{0,4}(?:提示|名称|数量|编号|描述|张数).{0,4}$/;

/** A first row of short labels that look like column names; a column without one is left empty. */
function looksLikeHeader(row: string[]): boolean {
  const labels = row.map((c) => c.trim()).filter(Boolean);
  return labels.every((c) => c.length < 40) && labels.some((c) => LABEL.test(c) || CJK_LABEL.test(c));
}

/**
 * Columns empty in every row, header included, are dropped from the end: Excel saves the columns
 * a sheet once formatted as ",,," after every row, and they are nothing to map.
 */
function usedWidth(rows: string[][]): number {
  let width = 1;
  for (const row of rows)
    for (let i = row.length - 1; i >= width; i--)
      if (row[i]!.trim() !== '') {
        width = i + 1;
        break;
      }
  return width;
}

function fromGrid(name: string, format: ImportedTable['format'], grid: string[][]): ImportedTable {
  const nonEmpty = grid.filter((r) => r.some((c) => c.trim() !== ''));
  const width = usedWidth(nonEmpty);
  const rows = nonEmpty.map((r) => (r.length > width ? r.slice(0, width) : r));
  const hasHeader = rows.length > 1 && looksLikeHeader(rows[0]!);
  const body = hasHeader ? rows.slice(1) : rows;
  checkRowCount(name, body.length);
  const columns = Array.from({ length: width }, (_, i) =>
    hasHeader ? rows[0]![i]?.trim() || `Column ${i + 1}` : `Column ${i + 1}`,
  );
  return { format, columns, hasHeader, rows: body };
}

/**
 * A quote that opens a cell and is never closed, or closed with text after it, makes the parser
 * read on into the next rows: their prompts would be merged into one cell. Said, with its line.
 */
function checkQuotes(name: string, text: string, errors: Papa.ParseError[]): void {
  const quote = errors.find((e) => e.code === 'MissingQuotes' || e.code === 'InvalidQuotes');
  if (!quote) return;
  const at = quote.index ?? 0;
  let line = 1;
  for (let i = 0; i < at && i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
  }
  throw new StudioError({
    code: 'STUDIO_IMPORT_UNCLOSED_QUOTE',
    message: `${name} could not be read: the quoted cell that starts on line ${line} is not closed properly`,
  });
}

/** Line breaks as Excel (CRLF), Unix (LF) and old Mac or Numbers exports (CR) write them. */
const LINE_BREAK = /\r\n|\r|\n/;

function fromObjects(format: 'json' | 'jsonl', name: string, records: unknown[]): ImportedTable {
  const objects = records.map((r) => {
    if (typeof r === 'string') return { prompt: r };
    if (!r || typeof r !== 'object' || Array.isArray(r))
      throw unreadable(name, 'each entry must be an object or a string');
    return r as Record<string, unknown>;
  });
  checkRowCount(name, objects.length);
  // A Set: ten thousand rows of distinct keys made the list's own search quadratic.
  const seen = new Set<string>();
  for (const o of objects) for (const k of Object.keys(o)) seen.add(k);
  const columns = [...seen];
  const cell = (v: unknown) =>
    v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return {
    format,
    columns,
    hasHeader: true,
    rows: objects.map((o) => columns.map((c) => cell(o[c]))),
  };
}

/** Half of a UTF-16 pair, alone: only a JSON escape ("\\ud800") or a broken workbook writes one. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * A broken character is refused, not sent: the gateway cannot take it, and it is no one's text. In
 * a workbook, U+FFFD is what the reader put where the XML's bytes were damaged (its ZIP is not
 * checked), so it is refused there too; a text file is decoded strictly and never gets one.
 */
function checkCharacters(name: string, table: ImportedTable): ImportedTable {
  const broken = table.format === 'xlsx' ? /[\uD800-\uDFFF\uFFFD]/u : LONE_SURROGATE;
  const row = table.rows.findIndex((r) => r.some((c) => broken.test(c)));
  if (row >= 0 || table.columns.some((c) => broken.test(c)))
    throw unreadable(name, `row ${row + 1} has a broken character (the file is damaged)`);
  return table;
}

/**
 * Reads a prompt table in any of the formats designers keep them in. The rows come back raw;
 * the user maps columns before anything enters the grid.
 */
export async function readTable(name: string, data: Buffer): Promise<ImportedTable> {
  return checkCharacters(name, await readAnyTable(name, data));
}

function xlsxCellText(value: CellValue | null): string {
  if (value === null) return '';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** A ZIP's signature: an .xlsx workbook, whatever the file is named. */
const isZip = (data: Buffer) => data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;

async function readWorkbook(name: string, data: Buffer): Promise<ImportedTable> {
  let sheet: (CellValue | null)[][];
  try {
    // The first sheet, as the values Excel shows (a formula's last result, rich text as its text).
    sheet = await (await loadSheetReader())(data);
  } catch (err) {
    throw unreadable(name, 'it is not an Excel workbook (.xlsx), or it is damaged', err);
  }
  return fromGrid(
    name,
    'xlsx',
    sheet.map((row) => row.map(xlsxCellText)),
  );
}

function readDelimited(name: string, text: string, tsv: boolean): ImportedTable {
  const result = Papa.parse<string[]>(text, { delimiter: tsv ? '\t' : '', skipEmptyLines: 'greedy' });
  checkQuotes(name, text, result.errors);
  if (result.errors.length && result.data.length === 0)
    throw unreadable(name, 'no rows could be read from it', result.errors[0]!.message);
  return fromGrid(name, tsv ? 'tsv' : 'csv', result.data);
}

async function readAnyTable(name: string, data: Buffer): Promise<ImportedTable> {
  const lower = name.toLowerCase();
  // A workbook saved or renamed as .csv is still a workbook; anything else zipped is not a table.
  if (lower.endsWith('.xlsx') || isZip(data)) return readWorkbook(name, data);
  const { text } = tableText(name, data);
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) {
    const records = text
      .split(LINE_BREAK)
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
  const firstLine = text.split(LINE_BREAK, 1)[0]!;
  if (lower.endsWith('.txt') || lower.endsWith('.md')) {
    // Excel's "Unicode Text" is a .txt of tab-separated columns: a table, not one prompt a line.
    if (firstLine.includes('\t')) return readDelimited(name, text, true);
    const lines = text.split(LINE_BREAK).filter((l) => l.trim());
    checkRowCount(name, lines.length);
    return { format: 'txt', columns: ['Prompt'], hasHeader: false, rows: lines.map((l) => [l.trim()]) };
  }
  const tsv = lower.endsWith('.tsv') || (!lower.endsWith('.csv') && firstLine.includes('\t'));
  return readDelimited(name, text, tsv);
}

/** The grid as CSV, with the columns the import reads back. */
export function draftToCsv(items: { customId: string; prompt: string; outputCount: number }[]): string {
  return `\uFEFF${Papa.unparse({
    fields: ['custom_id', 'prompt', 'output_count'],
    data: items.map((i) => [i.customId, i.prompt, i.outputCount]),
  })}\r\n`;
}
