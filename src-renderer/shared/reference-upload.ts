import type { ReferenceImage } from '../../src-shared/draft';
import type { StudioApi } from '../../src-shared/studio-api';

export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export interface UploadOutcome {
  added: ReferenceImage[];
  converted: string[];
  oversize: ReferenceImage[];
  errors: { name: string; message: string; code: string }[];
}

/** Hands dropped, picked or pasted images to main, which keeps them by content and converts odd formats. */
export async function uploadReferences(studio: StudioApi, files: File[]): Promise<UploadOutcome> {
  const outcome: UploadOutcome = { added: [], converted: [], oversize: [], errors: [] };
  for (const file of files) {
    try {
      const { converted, ...ref } = await studio.call('references.add', {
        name: file.name || 'pasted.png',
        dataBase64: await fileToBase64(file),
      });
      outcome.added.push(ref);
      if (converted) outcome.converted.push(file.name);
      if (ref.bytes > 10 * 1024 * 1024) outcome.oversize.push(ref);
    } catch (err) {
      const e = err as { code?: string; message?: string };
      outcome.errors.push({
        name: file.name,
        code: e.code ?? 'STUDIO_INTERNAL',
        message: e.message ?? String(err),
      });
    }
  }
  return outcome;
}

export function imageFiles(list: FileList | File[] | null | undefined): File[] {
  return [...(list ?? [])].filter(
    (f) => f.type.startsWith('image/') || /\.(png|jpe?g|webp|gif|bmp|tiff?|avif|heic)$/i.test(f.name),
  );
}
