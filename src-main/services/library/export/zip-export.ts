import type { LibraryDetail } from '../../../../src-shared/library-view';
import type { MethodOutput } from '../../../../src-shared/studio-api';
import type { ExportDownloads } from './export-downloads';
import { timeStampedName } from '../../storage/file-names';
import { exportZip } from './library-export';

/** A name that sorts by time and is safe on every file system: `picks-2026-05-04-13-45-10.zip`. */
export function exportZipName(at = new Date()): string {
  return timeStampedName('picks', 'zip', at);
}

export interface ZipExportTarget {
  /** Desktop: the native save dialog; null when dismissed. */
  pickSavePath?: (defaultName: string) => Promise<string | null>;
  /** Browser mode, which has no save dialog: the ZIP waits for its one download from the web host. */
  downloads: ExportDownloads;
}

/** Where an export went: a path on the desktop, a one-time download URL in browser mode, or nowhere. */
export interface Delivered<T> {
  canceled: boolean;
  path: string | null;
  downloadUrl: string | null;
  result: T | undefined;
}

/**
 * Writes an export where the host can put it: to a path the user picks on the desktop, or, in
 * browser mode, to a one-time download the page then fetches. Never as base64 through the API.
 */
export async function deliverExport<T>(
  name: string,
  write: (file: string) => Promise<T>,
  target: ZipExportTarget,
): Promise<Delivered<T>> {
  if (target.pickSavePath) {
    const path = await target.pickSavePath(name);
    if (!path) return { canceled: true, path: null, downloadUrl: null, result: undefined };
    return { canceled: false, path, downloadUrl: null, result: await write(path) };
  }
  const { id, result } = await target.downloads.prepare(name, write);
  return { canceled: false, path: null, downloadUrl: `/api/exports/${id}`, result };
}

/** Exports images as a ZIP (images, manifest.csv, manifest.json). */
export async function exportSelectionZip(
  images: LibraryDetail[],
  target: ZipExportTarget,
): Promise<MethodOutput<'library.exportZip'>> {
  const name = exportZipName();
  const out = await deliverExport(name, (file) => exportZip(images, file), target);
  return {
    name,
    images: out.result?.images ?? 0,
    canceled: out.canceled,
    path: out.path,
    downloadUrl: out.downloadUrl,
  };
}
