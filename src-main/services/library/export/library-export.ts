import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from 'fflate';
import Papa from 'papaparse';
import type { LibraryDetail } from '../../../../src-shared/library-view';
import { StudioError } from '../../../../src-shared/studio-error';
import { logCaught } from '../../log/studio-log';
import { exportFolderFailed, writeFailure } from './export-folder';
import { UniqueNames, safeName } from '../../storage/file-names';
import { embedPngText } from '../images/png-text';

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

/** Writes a chunk, waiting for the disk when the stream's buffer is full, so memory stays bounded. */
async function write(out: WriteStream, chunk: Uint8Array): Promise<void> {
  if (out.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => {
      out.off('drain', drained);
      reject(err);
    };
    const drained = () => {
      out.off('error', failed);
      resolve();
    };
    out.once('drain', drained);
    out.once('error', failed);
  });
}

/**
 * A ZIP of the images with manifest.csv and manifest.json, streamed to disk one image at a time:
 * images are stored as they are (already compressed), the manifests deflated. It is written beside
 * the target and renamed into place, so a failed export never leaves a half ZIP under the chosen name.
 */
export async function exportZip(
  details: LibraryDetail[],
  target: string,
): Promise<{ path: string; images: number }> {
  const partial = `${target}.part`;
  let out: WriteStream | undefined;
  const chunks: Uint8Array[] = [];
  let failure: Error | undefined;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else chunks.push(chunk);
  });
  const flush = async () => {
    if (failure) throw failure;
    for (const chunk of chunks.splice(0)) await write(out!, chunk);
  };
  const add = async (name: string, data: Uint8Array, compress: boolean) => {
    const entry = compress ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    zip.add(entry);
    entry.push(data, true);
    await flush();
  };
  try {
    await mkdir(dirname(target), { recursive: true });
    const stream = createWriteStream(partial);
    out = stream;
    // A write failing between two waits (a full disk) is kept and thrown by the next flush.
    stream.on('error', (err) => (failure ??= err));
    await once(stream, 'open');
    const names = new UniqueNames();
    const rows: { file: string; d: LibraryDetail }[] = [];
    for (const d of details) {
      const ext = extname(d.file).slice(1) || 'png';
      const file = `images/${names.take(safeName(`${d.taskName}-${d.customId}`, 100), ext)}`;
      const { data, sidecar } = await exported(d);
      await add(file, data, false);
      if (sidecar) await add(`${file}.json`, strToU8(sidecar), true);
      rows.push({ file, d });
    }
    const { json, csv } = manifests(rows);
    await add('manifest.json', strToU8(json), true);
    await add('manifest.csv', strToU8(csv), true);
    zip.end();
    await flush();
    await new Promise<void>((resolve, reject) =>
      stream.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    await rename(partial, target);
    return { path: target, images: rows.length };
  } catch (err) {
    out?.destroy();
    await rm(partial, { force: true }).catch((cleanup: unknown) => logCaught('export cleanup', cleanup));
    if (err instanceof StudioError) throw err;
    logCaught('export', err);
    throw new StudioError({
      code: 'STUDIO_EXPORT_FAILED',
      message: `Could not write ${target}: ${writeFailure(err)}.`,
    });
  }
}

/** Copies the images into a folder, with the same embedded prompts and manifests. */
export async function exportToFolder(
  details: LibraryDetail[],
  folder: string,
): Promise<{ path: string; images: number }> {
  const names = new UniqueNames();
  const rows: { file: string; d: LibraryDetail }[] = [];
  // The folder's own failures (no right to write, a full disk) are the person's to fix: said plainly.
  const into = async (file: string, data: string | Uint8Array) =>
    writeFile(join(folder, file), data).catch((err: unknown) => {
      throw exportFolderFailed(folder, err);
    });
  await mkdir(folder, { recursive: true }).catch((err: unknown) => {
    throw exportFolderFailed(folder, err);
  });
  // What the folder holds already is never written over: an earlier export's picks and manifest
  // stay, and this one's take names beside them.
  for (const name of await readdir(folder).catch(() => [])) names.reserve(name);
  for (const d of details) {
    const ext = extname(d.file).slice(1) || 'png';
    const file = names.take(safeName(`${d.taskName}-${d.customId}`, 100), ext);
    const { data, sidecar } = await exported(d);
    await into(file, data);
    if (sidecar) await into(`${file}.json`, sidecar);
    rows.push({ file, d });
  }
  const { json, csv } = manifests(rows);
  let stem = 'manifest';
  for (let n = 2; names.has(`${stem}.json`) || names.has(`${stem}.csv`); n++) stem = `manifest~${n}`;
  await into(`${stem}.json`, json);
  await into(`${stem}.csv`, csv);
  return { path: folder, images: rows.length };
}
