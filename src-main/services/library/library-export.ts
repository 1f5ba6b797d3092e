import { createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import JSZip from 'jszip';
import Papa from 'papaparse';
import type { LibraryDetail } from '../../../src-shared/library-view';
import { UniqueNames, safeName } from './file-names';
import { embedPngText } from './png-text';

/** What travels with an exported image: the prompt, and the parameters as JSON. */
function fieldsOf(d: LibraryDetail): Record<string, string> {
  return {
    prompt: d.prompt,
    parameters: JSON.stringify({ ...d.parameters, stars: d.stars, mark: d.mark }),
  };
}

/** The image's bytes as exported: PNGs carry their prompt inside, other formats get a JSON sidecar. */
async function exported(d: LibraryDetail): Promise<{ data: Buffer; sidecar?: string }> {
  const data = await readFile(d.path);
  if (d.mime === 'image/png') return { data: embedPngText(data, fieldsOf(d)) };
  return {
    data,
    sidecar: `${JSON.stringify({ prompt: d.prompt, ...d.parameters, stars: d.stars, mark: d.mark }, null, 2)}\n`,
  };
}

function manifests(rows: { file: string; d: LibraryDetail }[]) {
  const records = rows.map(({ file, d }) => ({
    file,
    prompt: d.prompt,
    custom_id: d.customId,
    batch_id: d.batchId,
    task_name: d.taskName,
    model: d.model,
    stars: d.stars,
    mark: d.mark ?? '',
  }));
  return { json: `${JSON.stringify(records, null, 2)}\n`, csv: `\uFEFF${Papa.unparse(records)}\r\n` };
}

/** A ZIP of the images with manifest.csv and manifest.json, built by JSZip and streamed to disk. */
export async function exportZip(
  details: LibraryDetail[],
  target: string,
): Promise<{ path: string; images: number }> {
  const zip = new JSZip();
  const names = new UniqueNames();
  const rows: { file: string; d: LibraryDetail }[] = [];
  for (const d of details) {
    const ext = extname(d.file).slice(1) || 'png';
    const file = `images/${names.take(safeName(`${d.taskName}-${d.customId}`, 100), ext)}`;
    const { data, sidecar } = await exported(d);
    zip.file(file, data, { compression: 'STORE' });
    if (sidecar) zip.file(`${file}.json`, sidecar);
    rows.push({ file, d });
  }
  const { json, csv } = manifests(rows);
  zip.file('manifest.json', json);
  zip.file('manifest.csv', csv);
  await mkdir(join(target, '..'), { recursive: true });
  await pipeline(
    zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'DEFLATE' }),
    createWriteStream(target),
  );
  return { path: target, images: rows.length };
}

/** Copies the images into a folder, with the same embedded prompts and manifests. */
export async function exportToFolder(
  details: LibraryDetail[],
  folder: string,
): Promise<{ path: string; images: number }> {
  await mkdir(folder, { recursive: true });
  const names = new UniqueNames();
  const rows: { file: string; d: LibraryDetail }[] = [];
  for (const d of details) {
    const ext = extname(d.file).slice(1) || 'png';
    const file = names.take(safeName(`${d.taskName}-${d.customId}`, 100), ext);
    const { data, sidecar } = await exported(d);
    await writeFile(join(folder, file), data);
    if (sidecar) await writeFile(join(folder, `${file}.json`), sidecar);
    rows.push({ file, d });
  }
  const { json, csv } = manifests(rows);
  await writeFile(join(folder, 'manifest.json'), json);
  await writeFile(join(folder, 'manifest.csv'), csv);
  return { path: folder, images: rows.length };
}
