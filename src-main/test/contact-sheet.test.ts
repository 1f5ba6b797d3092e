import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { contactSheetLabels } from '../services/contact-sheet/contact-sheet-labels';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, submitAndDownload } from './helpers/studio-fixture';

const PROMPTS = ['A red fox in the snow', '雪地里的红狐狸，水彩风格', 'A green teapot on oak'];

/** Reads a PDF back with poppler, an independent tool, as a client's viewer would. */
const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-']).toString();

describe('contact sheets', () => {
  it('prints each image with its prompt in English and Chinese, file name, mark and stars, with the batch in the header', async () => {
    const saved = mkdtempSync(join(tmpdir(), 'sheet-'));
    let asked = '';
    const services = await startServices({
      // The desktop's save dialog, answered with a path.
      pickSavePath: async (name) => {
        asked = name;
        return join(saved, name);
      },
    });
    await submitAndDownload(services, promptsDraft(`sheet-${Date.now()}`, 'Autumn mugs', PROMPTS, 'p'));
    const { items } = await call(services, 'library.query', { sort: 'oldest' });
    const ids = (items as { id: string; prompt: string }[]).map((i) => i.id);
    await call(services, 'library.mark', { ids: [ids[1]], mark: 'picked', stars: 4 });

    const out = await call(services, 'library.exportContactSheet', {
      ids,
      options: { title: 'Client review', pageSize: 'A4', perPage: 4 },
    });
    expect(out).toMatchObject({ images: 3, pages: 1, canceled: false, downloadUrl: null });
    expect(asked).toMatch(/^contact-sheet-.*\.pdf$/);
    const text = pdfText(out.path);
    expect(text).toContain('Client review');
    expect(text).toContain('Batch: Autumn mugs');
    expect(text).toContain('A red fox in the snow');
    expect(text).toContain('雪地里的红狐狸');
    expect(text).toContain('p1.png');
    expect(text).toMatch(/Picked\s+★★★★☆/);
    expect(text).toContain('Page 1 of 1');
    // The Chinese font travels inside the PDF, as a subset: the client needs no font of their own.
    const fonts = execFileSync('pdffonts', [out.path]).toString();
    expect(fonts).toMatch(/\+NotoSansSC-Regular\s+CID TrueType\s+Identity-H\s+yes yes/);
    // Three images on a page of four: the images are drawn, not only their captions.
    expect(execFileSync('pdfimages', ['-list', out.path]).toString().trim().split('\n').length - 2).toBe(3);
    // And the page, drawn as a viewer would, shows them: its top-left cell is not blank paper.
    const page = execFileSync('pdftoppm', ['-r', '30', '-png', '-f', '1', '-l', '1', out.path]);
    const { width, height } = await sharp(page).metadata();
    const cell = await sharp(page)
      .extract({
        left: Math.round(width! * 0.1),
        top: Math.round(height! * 0.15),
        width: Math.round(width! * 0.3),
        height: Math.round(height! * 0.2),
      })
      .stats();
    expect(Math.max(...cell.channels.map((c) => c.stdev))).toBeGreaterThan(10);

    // In Chinese, with more images than a page holds: a page each, numbered in Chinese.
    await call(services, 'settings.update', { language: 'zh-CN' });
    const zh = await call(services, 'library.exportContactSheet', {
      ids: [...ids, ...ids, ...ids],
      options: { pageSize: 'Letter', orientation: 'landscape', perPage: 4 },
    });
    expect(zh.pages).toBe(3);
    const zhText = pdfText(zh.path);
    expect(zhText).toContain('样张');
    expect(zhText).toContain('第 1 页，共 3 页');
    expect(zhText).toContain('已选中');
  });

  it('says under each image who on the team picked it, by the names people gave themselves', async () => {
    const saved = mkdtempSync(join(tmpdir(), 'sheet-team-'));
    const services = await startServices({ pickSavePath: async (name) => join(saved, name) });
    await submitAndDownload(services, promptsDraft(`sheet-team-${Date.now()}`, 'Team', PROMPTS, 't'));
    await call(services, 'settings.update', { personName: 'Ana' });
    const { items } = await call(services, 'library.query', { sort: 'oldest' });
    const ids = (items as { id: string }[]).map((i) => i.id);
    await call(services, 'library.mark', { ids: [ids[0]], mark: 'picked' });
    // Wei, on another computer, picked the first and the third, as their studio writes it.
    const first = await call(services, 'library.detail', { id: ids[0] });
    const third = await call(services, 'library.detail', { id: ids[2] });
    const folder = join(first.path, '..', '..');
    mkdirSync(join(folder, 'review'), { recursive: true });
    const entry = { mark: 'picked', stars: 0, seq: 1 };
    writeFileSync(
      join(folder, 'review', 'a1b2c3d4e5f6.json'),
      JSON.stringify({
        format: 'batch-image-studio.review/2',
        person: { id: 'a1b2c3d4e5f6', name: 'Wei' },
        images: { [first.file]: entry, [third.file]: { ...entry, seq: 2 } },
      }),
    );
    await call(services, 'library.overview');

    const out = await call(services, 'library.exportContactSheet', { ids, options: { perPage: 4 } });
    const lines = pdfText(out.path).split('\n');
    // Each picked image's line names who picked it; the one nobody picked has no such line.
    expect(lines.filter((l) => /Picked: (Ana, Wei|Wei, Ana)/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /Picked: Wei(?!,)/.test(l))).toHaveLength(1);
    expect(lines.join('\n').match(/Picked: /g)).toHaveLength(2);
  });

  it('a dismissed save dialog writes nothing', async () => {
    const services = await startServices({ pickSavePath: async () => null });
    await submitAndDownload(services, promptsDraft(`sheet-none-${Date.now()}`, 'Nothing', ['one'], 'a'));
    const { items } = await call(services, 'library.query', {});
    const out = await call(services, 'library.exportContactSheet', { ids: [items[0].id], options: {} });
    expect(out).toMatchObject({ canceled: true, path: null, images: 0 });
  });

  it("names the sheet's batches in the header: the one by name, several by their count, in each language", () => {
    const en = contactSheetLabels('en');
    expect(en.batches(['Teapots'])).toBe('Batch: Teapots');
    expect(en.batches(['Teapots', 'Foxes'])).toBe('2 batches');
    expect(en.page(2, 5)).toBe('Page 2 of 5');
    const zh = contactSheetLabels('zh-CN');
    expect(zh.batches(['茶壶'])).toBe('批次：茶壶');
    expect(zh.batches(['茶壶', '狐狸', '猫'])).toBe('3 个批次');
    expect(zh.page(1, 3)).toBe('第 1 页，共 3 页');
  });
});
