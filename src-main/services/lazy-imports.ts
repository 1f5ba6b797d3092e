/**
 * Libraries that each take 40-230 ms to load (bench/start.bench.ts measures them), loaded where
 * first used rather than when the studio starts: none of them is needed for the first screen.
 * (libsql, 20 ms, is loaded at start: the library's catalog opens then.)
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

/** sharp (libvips): thumbnails, hashes, references, the checks of downloaded images. */
export const loadSharp = once(async () => (await import('sharp')).default);

/** pdfkit: contact sheets. */
export const loadPdfKit = once(async () => (await import('pdfkit')).default);

/** read-excel-file: prompts imported from .xlsx. */
export const loadSheetReader = once(async () => (await import('read-excel-file/node')).readSheet);

/**
 * The tokenizer's count (cl100k, as the gateway counts), its tables 230 ms to load: loaded by the
 * row check that counts (kb-rows.ts), at its first call, and bundled as a chunk of its own, so the
 * packaged app carries the one encoding it uses.
 */
export const loadTokenizer = once(
  async () => (await import('gpt-tokenizer/encoding/cl100k_base')).countTokens,
);
