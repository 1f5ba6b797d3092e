/**
 * The paths of images served by URL (the desktop's `studio-image:` protocol, browser mode's GET
 * routes). Ids are percent-encoded as one segment each: a library id holds slashes and spaces.
 */
export const imagePaths = {
  libraryThumb: (id: string, size: 256 | 640) => `/images/library/${encodeURIComponent(id)}/thumb/${size}`,
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
