import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { finished } from 'node:stream/promises';
import { loadPdfKit, loadSharp } from '../lazy-imports';
import type { ContactSheetOptions, LibraryDetail } from '../../../src-shared/library-view';
import { logCaught } from '../log/studio-log';
import { fontRuns, latinFont } from './cjk-font';

/** Page sizes in PDF points (1/72 inch), portrait. */
const PAGES = { A4: [595.28, 841.89], A3: [841.89, 1190.55], Letter: [612, 792] } as const;
/** Images per page as columns × rows on a portrait page; a landscape page turns the grid. */
const GRIDS: Record<ContactSheetOptions['perPage'], [number, number]> = {
  4: [2, 2],
  6: [2, 3],
  9: [3, 3],
  12: [3, 4],
  20: [4, 5],
  30: [5, 6],
};
const MARGIN = 32;
const HEADER = 40;
const GAP = 12;
const PROMPT_SIZE = 7.5;
const SMALL_SIZE = 6.5;
const PROMPT_LINES = 3;

/** The words a sheet prints, in the studio's language. */
export interface ContactSheetLabels {
  picked: string;
  rejected: string;
  /** "Picked: Ana, Wei": who on the team picked an image. */
  pickedBy(names: string[]): string;
  /** This studio's person's name, for an image only they marked. */
  me: string;
  /** Marks made before people had names. */
  earlier: string;
  /** "Batch: Autumn mugs (imgbatch_…)", or "3 batches". */
  batches(names: string[]): string;
  /** "Page 2 of 5". */
  page(page: number, pages: number): string;
  /** A date as people read it where they are. */
  date(seconds: number): string;
}

type Doc = PDFKit.PDFDocument;

/** Draws text in as many font files as its characters need (Chinese, Latin, symbols). */
function drawRuns(doc: Doc, text: string, x: number, y: number, width: number, size: number): void {
  const runs = fontRuns(text);
  runs.forEach((run, i) => {
    doc.font(run.font ?? latinFont()).fontSize(size);
    const last = i === runs.length - 1;
    if (i === 0) doc.text(run.text, x, y, { width, continued: !last, lineGap: 1 });
    else doc.text(run.text, { continued: !last });
  });
}

/**
 * One line of text, placed run by run: pdfkit's own alignment breaks across font changes, so the
 * line is measured first and each run drawn where it falls.
 */
function drawLine(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  width: number,
  size: number,
  align: 'left' | 'right' = 'left',
): void {
  const runs = fontRuns(fitted(doc, text, width, 1, size)).map((run) => {
    doc.font(run.font ?? latinFont()).fontSize(size);
    return { ...run, width: doc.widthOfString(run.text) };
  });
  let at = align === 'right' ? x + width - runs.reduce((sum, r) => sum + r.width, 0) : x;
  for (const run of runs) {
    doc.font(run.font ?? latinFont()).fontSize(size);
    doc.text(run.text, at, y, { lineBreak: false });
    at += run.width;
  }
}

/** Shortens text to what fits in `lines` lines of `width`, measured per character in its own font. */
function fitted(doc: Doc, text: string, width: number, lines: number, size: number): string {
  // Words wrap before the edge: a line holds less than its full width, by about this much.
  const budget = width * lines * 0.82;
  let used = 0;
  let out = '';
  for (const run of fontRuns(text.replace(/\s+/g, ' ').trim())) {
    doc.font(run.font ?? latinFont()).fontSize(size);
    for (const ch of run.text) {
      used += doc.widthOfString(ch);
      if (used > budget) return `${out.trimEnd()}…`;
      out += ch;
    }
  }
  return out;
}

/**
 * Who on the team picked an image, by the names they gave themselves: the team's marks where
 * anyone else marked it, else this person alone when they picked it.
 */
function whoPicked(image: LibraryDetail, labels: ContactSheetLabels): string[] {
  if (!image.team) return image.mark === 'picked' ? [labels.me] : [];
  return image.team.by.filter((p) => p.mark === 'picked').map((p) => p.name || labels.earlier);
}

/** The image made small enough for print at the cell's size, as JPEG on white. */
async function printable(path: string, width: number, height: number): Promise<Buffer | undefined> {
  try {
    const sharp = await loadSharp();
    return await sharp(path)
      .rotate()
      .resize({
        width: Math.round(width * 2),
        height: Math.round(height * 2),
        fit: 'inside',
        withoutEnlargement: true,
      })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82 })
      .toBuffer();
  } catch (err) {
    // A damaged image leaves its cell with the caption and an empty frame, not a failed sheet.
    logCaught(`contact sheet image ${path}`, err);
    return undefined;
  }
}

/**
 * Writes a PDF contact sheet for client review: a grid of the images with each one's prompt, file
 * name, mark and stars, and the batch and date in each page's header. Images are drawn one at a
 * time, so memory stays flat for a sheet of thousands.
 */
export async function writeContactSheet(
  images: LibraryDetail[],
  options: ContactSheetOptions,
  labels: ContactSheetLabels,
  file: string,
): Promise<{ pages: number; images: number }> {
  const [portraitW, portraitH] = PAGES[options.pageSize];
  const landscape = options.orientation === 'landscape';
  const [pageW, pageH] = landscape ? [portraitH, portraitW] : [portraitW, portraitH];
  const [cols, rows] = landscape
    ? [GRIDS[options.perPage][1], GRIDS[options.perPage][0]]
    : GRIDS[options.perPage];
  const perPage = cols * rows;
  const pages = Math.max(1, Math.ceil(images.length / perPage));

  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({
    size: [pageW, pageH],
    margin: 0,
    autoFirstPage: false,
    info: { Title: options.title, Creator: 'Batch Image Studio' },
  });
  // Written beside its place and renamed when whole: a failed sheet never leaves half a PDF.
  const partial = `${file}.part`;
  const out = createWriteStream(partial);
  doc.pipe(out);
  try {
    await drawSheet();
  } catch (err) {
    doc.end();
    await finished(out).catch(() => undefined);
    await rm(partial, { force: true });
    throw err;
  }
  doc.end();
  await finished(out);
  await rename(partial, file);
  return { pages, images: images.length };

  async function drawSheet(): Promise<void> {
    const batchNames = [...new Map(images.map((i) => [i.batchId, i.taskName || i.batchId])).values()];
    const times = images.map((i) => i.createdAt).filter((t) => t > 0);
    const dates =
      times.length === 0
        ? ''
        : Math.min(...times) === Math.max(...times) ||
            labels.date(Math.min(...times)) === labels.date(Math.max(...times))
          ? labels.date(Math.min(...times))
          : `${labels.date(Math.min(...times))} – ${labels.date(Math.max(...times))}`;
    const cellW = (pageW - 2 * MARGIN - (cols - 1) * GAP) / cols;
    const cellH = (pageH - 2 * MARGIN - HEADER - (rows - 1) * GAP) / rows;
    const captionH = PROMPT_LINES * (PROMPT_SIZE + 2.5) + 3 * (SMALL_SIZE + 3) + 4;
    const imageH = Math.max(20, cellH - captionH);

    for (let page = 0; page < pages; page++) {
      doc.addPage();
      drawLine(doc, options.title, MARGIN, MARGIN, pageW * 0.55, 13);
      const right = `${labels.batches(batchNames)}${dates ? ` · ${dates}` : ''}`;
      const columnW = pageW * 0.4 - MARGIN;
      drawLine(doc, right, pageW * 0.6, MARGIN + 2, columnW, 8, 'right');
      doc.fillColor('#666666');
      drawLine(doc, labels.page(page + 1, pages), pageW * 0.6, MARGIN + 16, columnW, 7, 'right');
      doc.fillColor('#000000');
      doc
        .moveTo(MARGIN, MARGIN + HEADER - 10)
        .lineTo(pageW - MARGIN, MARGIN + HEADER - 10)
        .lineWidth(0.5)
        .strokeColor('#bbbbbb')
        .stroke();

      const slice = images.slice(page * perPage, (page + 1) * perPage);
      for (let i = 0; i < slice.length; i++) {
        const image = slice[i]!;
        const x = MARGIN + (i % cols) * (cellW + GAP);
        const y = MARGIN + HEADER + Math.floor(i / cols) * (cellH + GAP);
        const jpeg = await printable(image.path, cellW, imageH);
        doc.rect(x, y, cellW, imageH).fillColor('#f2f2f2').fill().fillColor('#000000');
        if (jpeg) doc.image(jpeg, x, y, { fit: [cellW, imageH], align: 'center', valign: 'center' });
        let cy = y + imageH + 4;
        doc.save().rect(x, cy, cellW, captionH).clip();
        drawRuns(doc, fitted(doc, image.prompt, cellW, PROMPT_LINES, PROMPT_SIZE), x, cy, cellW, PROMPT_SIZE);
        cy += PROMPT_LINES * (PROMPT_SIZE + 2.5);
        doc.fillColor('#555555');
        drawLine(doc, basename(image.file), x, cy, cellW, SMALL_SIZE);
        cy += SMALL_SIZE + 3;
        const mark =
          image.mark === 'picked' ? labels.picked : image.mark === 'rejected' ? labels.rejected : '';
        const stars = image.stars ? '★'.repeat(image.stars) + '☆'.repeat(5 - image.stars) : '';
        const verdict = [mark, stars].filter(Boolean).join('  ');
        if (verdict) {
          doc.fillColor(
            image.mark === 'rejected' ? '#b42318' : image.mark === 'picked' ? '#1f7a3d' : '#555555',
          );
          drawLine(doc, verdict, x, cy, cellW, SMALL_SIZE);
        }
        cy += SMALL_SIZE + 3;
        const pickers = whoPicked(image, labels);
        if (pickers.length) {
          doc.fillColor('#1f7a3d');
          drawLine(doc, labels.pickedBy(pickers), x, cy, cellW, SMALL_SIZE);
        }
        doc.fillColor('#000000').restore();
      }
    }
  }
}
