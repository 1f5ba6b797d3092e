import { createRequire } from 'node:module';
import type { countTokens as CountTokens } from 'gpt-tokenizer/encoding/cl100k_base';

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

const requireHere = createRequire(import.meta.url);
let tokenizer: { countTokens: typeof CountTokens } | undefined;

/**
 * Tokens of a text for the knowledge base's limits (cl100k, as the gateway counts). Synchronous,
 * as its callers are: the tokenizer's tables (230 ms to load) are required on the first count.
 */
export function countTokens(text: string): number {
  tokenizer ??= requireHere('gpt-tokenizer/encoding/cl100k_base') as { countTokens: typeof CountTokens };
  return tokenizer.countTokens(text);
}
