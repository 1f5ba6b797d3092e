import { rename, rm, writeFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { translatorIn } from '../../../../src-shared/i18n/translator';
import type { Language } from '../../../../src-shared/settings';
import { WHAT_WORKED_MODEL, type WhatWorkedResult } from '../../../../src-shared/what-worked';
import { xlsxWorkbook, type SheetCell } from './xlsx-sheet';

/** A share (0..1) as a percentage with one decimal, as a spreadsheet shows it. */
const percent = (share: number) => Math.round(share * 1000) / 10;

/**
 * The "What worked" table as rows of cells, headed in the studio's language: one column per `by`
 * name, then the counts, the share picked with its 95 % interval, and the mean stars. In the
 * table's order (best first).
 */
export function whatWorkedTable(result: WhatWorkedResult, by: string[], language: Language): SheetCell[][] {
  const t = translatorIn(language);
  const header = [
    ...by.map((name) => (name === WHAT_WORKED_MODEL ? t('worked.model') : name)),
    t('worked.colImages'),
    t('contactSheet.picked'),
    `${t('worked.fileShare')} (%)`,
    `${t('worked.fileLow')} (%)`,
    `${t('worked.fileHigh')} (%)`,
    t('worked.colRejected'),
    t('worked.colUnrated'),
    t('worked.colStars'),
  ];
  const rows = result.rows.map((row) => [
    ...by.map((name) => row.values[name] ?? ''),
    row.images,
    row.picked,
    percent(row.images ? row.picked / row.images : 0),
    percent(row.pickInterval.low),
    percent(row.pickInterval.high),
    row.rejected,
    row.unrated,
    row.meanStars === null ? null : Math.round(row.meanStars * 100) / 100,
  ]);
  return [header, ...rows];
}

/** A text cell a spreadsheet would run as a formula (=, +, -, @) is kept as text. */
const inert = (cell: SheetCell) =>
  typeof cell === 'string' && /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;

/** CSV as Excel opens it: UTF-8 with its mark (Chinese stays Chinese), CRLF lines. */
export function tableCsv(rows: SheetCell[][]): string {
  return `\uFEFF${Papa.unparse(rows.map((row) => row.map(inert)))}\r\n`;
}

/** `what-worked-2026-05-04-13-45-10.csv`: sorts by time, safe on every file system. */
export function whatWorkedFileName(format: 'csv' | 'xlsx', at = new Date()): string {
  return `what-worked-${at.toISOString().slice(0, 19).replace(/[:T]/g, '-')}.${format}`;
}

/** Writes the table beside its place and renames it when whole: a failed export leaves no half file. */
export async function writeWhatWorkedTable(
  rows: SheetCell[][],
  format: 'csv' | 'xlsx',
  sheetName: string,
  file: string,
): Promise<{ rows: number }> {
  const partial = `${file}.part`;
  try {
    await writeFile(partial, format === 'csv' ? tableCsv(rows) : xlsxWorkbook(sheetName, rows));
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return { rows: rows.length - 1 };
}

/** How many of the table's rows a contact sheet's summary line names. */
const SHEET_ROWS = 3;

/**
 * The line a contact sheet prints under its title: the table's top rows, with their counts and
 * intervals ("What worked, by surface: marble 32 of 32 picked (89–100 %) · …").
 */
export function whatWorkedSheetLine(result: WhatWorkedResult, by: string[], language: Language): string {
  const t = translatorIn(language);
  const none = t('worked.none');
  const rows = result.rows.slice(0, SHEET_ROWS).map((row) =>
    t('worked.sheetRow', {
      values: by.map((name) => row.values[name] || none).join(' · '),
      picked: row.picked,
      images: row.images,
      low: Math.round(row.pickInterval.low * 100),
      high: Math.round(row.pickInterval.high * 100),
    }),
  );
  const names = by.map((name) => (name === WHAT_WORKED_MODEL ? t('worked.model') : name));
  return t('worked.sheetLine', { by: names.join(' × '), rows: rows.join(' · ') });
}
