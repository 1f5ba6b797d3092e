/**
 * The thumbnail sizes made, on the long side: the gallery asks for the smallest that covers a cell
 * at the screen's density, so a thumbnail is never scaled up from a smaller one.
 */
export const THUMB_SIZES = [128, 256, 384, 640, 800] as const;
export type ThumbSize = (typeof THUMB_SIZES)[number];

/** The smallest thumbnail that covers `px` device pixels (the largest, beyond it). */
export function thumbSizeFor(px: number): ThumbSize {
  return THUMB_SIZES.find((s) => s >= px) ?? THUMB_SIZES[THUMB_SIZES.length - 1]!;
}

/**
 * The paths of images served by URL (the desktop's `studio-image:` protocol, browser mode's GET
 * routes). Ids are percent-encoded as one segment each: a library id holds slashes and spaces.
 */
export const imagePaths = {
  libraryThumb: (id: string, size: ThumbSize) => `/images/library/${encodeURIComponent(id)}/thumb/${size}`,
  libraryOriginal: (id: string) => `/images/library/${encodeURIComponent(id)}/original`,
  realtime: (jobId: string, which: 'result' | 'input', index: number) =>
    `/images/realtime/${encodeURIComponent(jobId)}/${which}/${index}`,
  batchPreview: (batchId: string, customId: string) =>
    `/images/batch-preview/${encodeURIComponent(batchId)}/${encodeURIComponent(customId)}`,
  referenceThumb: (referenceId: string) => `/images/references/${referenceId}/thumb`,
};

/** The desktop window's privileged scheme for images; browser mode serves the same paths on its own origin. */
export const IMAGE_SCHEME = 'studio-image';
export const DESKTOP_IMAGE_BASE = `${IMAGE_SCHEME}://img`;
