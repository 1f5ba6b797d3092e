/** A cell is quoted when it holds what would otherwise end it: a tab, a line break or a quote. */
const NEEDS_QUOTES = /[\t\r\n"]/;

/**
 * A table as Sheets and Excel put it on the clipboard: tab between cells, a line break between rows,
 * and a cell holding a tab, line break or quote wrapped in quotes with its quotes doubled.
 */
export function toTsv(rows: readonly (readonly string[])[]): string {
  return rows
    .map((cells) => cells.map((c) => (NEEDS_QUOTES.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join('\t'))
    .join('\n');
}

/**
 * The table in text from the clipboard, quoted cells undone. Text with neither a tab nor a line break
 * is one cell as it stands (a prompt may well start with a quote). The line break Excel ends its copy
 * with makes no empty last row. papaparse arrives with the first table pasted, not with Compose:
 * the first screen's script stays under its budget (issue 36).
 */
export async function fromTsv(text: string): Promise<string[][]> {
  if (!/[\t\r\n]/.test(text)) return [[text]];
  const { default: Papa } = await import('papaparse');
  const body = text.replace(/\r?\n$/, '');
  const parsed = Papa.parse<string[]>(body, { delimiter: '\t', quoteChar: '"' });
  const rows = parsed.data.map((r) => r.map((c) => c.replace(/\r\n/g, '\n')));
  // A ragged table (rows of different lengths) is squared, so every row covers the same columns.
  const width = Math.max(...rows.map((r) => r.length));
  return rows.map((r) => (r.length < width ? [...r, ...Array<string>(width - r.length).fill('')] : r));
}
