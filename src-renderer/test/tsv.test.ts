import { describe, expect, it } from 'vitest';
import { fromTsv, toTsv } from '../compose/tsv';

describe('TSV as Sheets and Excel copy it', () => {
  it('joins cells with tabs and rows with line breaks', () => {
    expect(
      toTsv([
        ['a', 'b'],
        ['c', 'd'],
      ]),
    ).toBe('a\tb\nc\td');
  });

  it('quotes a cell with a line break, tab or quote, doubling its quotes', () => {
    expect(toTsv([['two\nlines', 'tab\there', 'a "quote"', 'plain']])).toBe(
      '"two\nlines"\t"tab\there"\t"a ""quote"""\tplain',
    );
  });

  it('reads back what it writes, Chinese and empty cells included', async () => {
    const table = [
      ['row-001', 'Ceramic mug\non linen, 5" tall', '2'],
      ['row-002', '亚麻布上的陶瓷杯', ''],
      ['', 'tab\tinside', '1'],
    ];
    expect(await fromTsv(toTsv(table))).toEqual(table);
  });

  it('takes one line without tabs as one cell, quotes and all', async () => {
    expect(await fromTsv('"Hello" she said')).toEqual([['"Hello" she said']]);
  });

  it('drops the line break Excel ends a copy with, and reads CRLF rows', async () => {
    expect(await fromTsv('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('squares a ragged table', async () => {
    expect(await fromTsv('a\tb\nc')).toEqual([
      ['a', 'b'],
      ['c', ''],
    ]);
  });

  it('reads lines of plain text as one column', async () => {
    expect(await fromTsv('one\ntwo\nthree')).toEqual([['one'], ['two'], ['three']]);
  });
});
