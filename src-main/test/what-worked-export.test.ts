import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSheet } from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, submitAndDownload } from './helpers/studio-fixture';

const SUBJECTS = ['fox', '狐狸', '=cmd|calc'];
const SURFACES = ['snow', 'moss'];

/** A template's rows, each keeping its values: 3 subjects x 2 surfaces. */
function partedDraft(id: string) {
  const template = 'A {subject} on {surface}';
  const values = SUBJECTS.flatMap((subject) => SURFACES.map((surface) => ({ subject, surface })));
  const draft = promptsDraft(
    id,
    'Foxes',
    values.map((v) => `A ${v.subject} on ${v.surface}`),
  );
  return {
    ...draft,
    items: draft.items.map((item, i) => ({
      ...item,
      parts: { template, values: values[i]!, source: 'template' },
    })),
  };
}

/** Reads a PDF back with poppler, an independent tool, as a client's viewer would. */
const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-']).toString();

describe('What worked, exported', () => {
  it('writes the table as CSV and XLSX, best first, with the counts and intervals, in the studio’s language', async () => {
    const saved = mkdtempSync(join(tmpdir(), 'worked-'));
    const services = await startServices({ pickSavePath: async (name) => join(saved, name) });
    await submitAndDownload(services, partedDraft(`worked-${Date.now()}`));
    const { items } = await call(services, 'library.query', { sort: 'oldest' });
    const on = (word: string) =>
      (items as { id: string; prompt: string }[]).filter((i) => i.prompt.includes(word));
    // Every image on snow picked, one on moss rejected.
    await call(services, 'library.mark', { ids: on('snow').map((i) => i.id), mark: 'picked' });
    await call(services, 'library.mark', { ids: [on('moss')[0]!.id], mark: 'rejected', stars: 2 });
    const query = { by: ['surface'], marksBy: 'mine' };

    const csv = await call(services, 'library.exportWhatWorked', { query, format: 'csv' });
    expect(csv).toMatchObject({ rows: 2, canceled: false, downloadUrl: null });
    expect(csv.name).toMatch(/^what-worked-.*\.csv$/);
    const text = readFileSync(csv.path, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe(
      'surface,Images,Picked,Share picked (%),Interval low (%),Interval high (%),Rejected,Unrated,Mean stars',
    );
    // 3 of 3 picked: 43.9–100 % (Wilson); moss 0 of 3, one rejected with 2 stars.
    expect(lines[1]).toBe('snow,3,3,100,43.9,100,0,0,');
    expect(lines[2]).toBe('moss,3,0,0,0,56.1,1,2,2');

    const xlsx = await call(services, 'library.exportWhatWorked', {
      query: { by: ['subject'], marksBy: 'mine' },
      format: 'xlsx',
    });
    expect(xlsx.name).toMatch(/\.xlsx$/);
    const rows = await readSheet(xlsx.path);
    expect(rows[0]!.slice(0, 3)).toEqual(['subject', 'Images', 'Picked']);
    // Each subject: 1 of 2 picked. A value that looks like a formula stays text.
    expect(
      rows
        .slice(1)
        .map((r) => [r[0], r[1], r[2]])
        .sort(),
    ).toEqual(
      [
        ['=cmd|calc', 2, 1],
        ['fox', 2, 1],
        ['狐狸', 2, 1],
      ].sort(),
    );
    expect(execFileSync('unzip', ['-t', xlsx.path]).toString()).toContain('No errors detected');

    // In Chinese, the headers are Chinese.
    await call(services, 'settings.update', { language: 'zh-CN' });
    const zh = await call(services, 'library.exportWhatWorked', { query, format: 'csv' });
    expect(readFileSync(zh.path, 'utf8')).toContain('图像');
  });

  it('prints the top rows as a line on the first page of a contact sheet', async () => {
    const saved = mkdtempSync(join(tmpdir(), 'worked-sheet-'));
    const services = await startServices({ pickSavePath: async (name) => join(saved, name) });
    await submitAndDownload(services, partedDraft(`worked-sheet-${Date.now()}`));
    const { items } = await call(services, 'library.query', { sort: 'oldest' });
    const snow = (items as { id: string; prompt: string }[]).filter((i) => i.prompt.includes('snow'));
    await call(services, 'library.mark', { ids: snow.map((i) => i.id), mark: 'picked' });
    const out = await call(services, 'library.exportContactSheet', {
      ids: snow.map((i) => i.id),
      options: { title: 'Foxes', pageSize: 'A4', perPage: 4 },
      whatWorked: { by: ['surface'], marksBy: 'mine' },
    });
    expect(out).toMatchObject({ images: 3, pages: 1 });
    const text = pdfText(out.path).replace(/\s+/g, ' ');
    expect(text).toContain(
      'What worked, by surface: snow 3 of 3 picked (44–100 %) · moss 0 of 3 picked (0–56 %)',
    );
  });
});
