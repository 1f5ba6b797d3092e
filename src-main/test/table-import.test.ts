import { strToU8, zipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { draftToCsv, readTable } from '../services/drafts/table-import';

/** Workbooks written once by ExcelJS 4.4, as a spreadsheet program saves them. */
const workbook = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name));

describe('reading prompt tables', () => {
  it('reads CSV with a header, quotes, a BOM and Chinese', async () => {
    const table = await readTable(
      'p.csv',
      Buffer.from('\uFEFFcustom_id,prompt,output_count\na,"Mug, glazed",2\nb,一只青花瓷杯,1\n'),
    );
    expect(table).toMatchObject({
      format: 'csv',
      hasHeader: true,
      columns: ['custom_id', 'prompt', 'output_count'],
    });
    expect(table.rows).toEqual([
      ['a', 'Mug, glazed', '2'],
      ['b', '一只青花瓷杯', '1'],
    ]);
  });

  it('reads TSV and headerless lists', async () => {
    expect((await readTable('p.tsv', Buffer.from('one\t2\ntwo\t1\n'))).rows).toEqual([
      ['one', '2'],
      ['two', '1'],
    ]);
    const text = await readTable('p.txt', Buffer.from('first prompt\n\nsecond prompt\r\n'));
    expect(text).toMatchObject({ format: 'txt', rows: [['first prompt'], ['second prompt']] });
  });

  it('reads XLSX, JSON and JSONL', async () => {
    // A sheet Prompts with rows: prompt | custom_id, A vase | v1, 一只碗 | b1.
    const fromXlsx = await readTable('p.xlsx', workbook('prompts.xlsx'));
    expect(fromXlsx).toMatchObject({
      format: 'xlsx',
      columns: ['prompt', 'custom_id'],
      rows: [
        ['A vase', 'v1'],
        ['一只碗', 'b1'],
      ],
    });

    const json = await readTable(
      'p.json',
      Buffer.from(JSON.stringify([{ prompt: 'x', output_count: 2 }, 'plain prompt'])),
    );
    expect(json.columns).toEqual(['prompt', 'output_count']);
    expect(json.rows).toEqual([
      ['x', '2'],
      ['plain prompt', ''],
    ]);
    const jsonl = await readTable('p.jsonl', Buffer.from('{"prompt":"a"}\n{"prompt":"b","custom_id":"B"}\n'));
    expect(jsonl.rows).toEqual([
      ['a', ''],
      ['b', 'B'],
    ]);
  });

  it('reads the first sheet of XLSX as the cells show: rich text, links, formulas, numbers, gaps', async () => {
    // Sheet Mixed (then a sheet Notes): custom_id | prompt | output_count; r1 | "A teapot" in two
    // styles | 2; r2 | "A lamp" linked | =1+2 saved as 3; an empty row; r3 | 一只杯 | (empty);
    // r4 | (empty) | 1.5.
    const table = await readTable('mixed.xlsx', workbook('mixed-cells.xlsx'));
    expect(table).toMatchObject({ format: 'xlsx', columns: ['custom_id', 'prompt', 'output_count'] });
    expect(table.rows).toEqual([
      ['r1', 'A teapot', '2'],
      ['r2', 'A lamp', '3'],
      ['r3', '一只杯', ''],
      ['r4', '', '1.5'],
    ]);
  });

  it('explains a broken file instead of crashing', async () => {
    await expect(readTable('p.json', Buffer.from('{nope'))).rejects.toMatchObject({
      code: 'STUDIO_IMPORT_UNREADABLE',
    });
    await expect(readTable('p.jsonl', Buffer.from('{"a":1}\nnot json'))).rejects.toMatchObject({
      code: 'STUDIO_IMPORT_UNREADABLE',
    });
    await expect(readTable('p.xlsx', Buffer.from('PK not really'))).rejects.toMatchObject({
      code: 'STUDIO_IMPORT_UNREADABLE',
      message: expect.stringContaining('not an Excel workbook'),
    });
    // A ZIP, as an .xlsx is, but without a workbook in it.
    const notWorkbook = Buffer.from(zipSync({ 'readme.txt': strToU8('hello') }));
    await expect(readTable('p.xlsx', notWorkbook)).rejects.toMatchObject({
      code: 'STUDIO_IMPORT_UNREADABLE',
      message: expect.stringContaining('not an Excel workbook'),
    });
    // The parser's own words ("Unexpected token", "position 1") never reach the message.
    const json = await readTable('p.json', Buffer.from('{nope')).catch((err: Error) => err);
    expect((json as Error).message).toMatch(/not valid JSON/);
    expect((json as Error).message).not.toMatch(/position|Unexpected|Expected/);
  });

  it('exports CSV that imports back the same', async () => {
    const csv = draftToCsv([
      { customId: 'a', prompt: 'Mug, "glazed"\nsecond line', outputCount: 2 },
      { customId: 'b', prompt: '一只杯', outputCount: 1 },
    ]);
    const back = await readTable('back.csv', Buffer.from(csv));
    expect(back.rows).toEqual([
      ['a', 'Mug, "glazed"\nsecond line', '2'],
      ['b', '一只杯', '1'],
    ]);
  });
});
