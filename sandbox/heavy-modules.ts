import type { countTokens as CountTokens } from 'gpt-tokenizer/encoding/cl100k_base';

/**
 * The sandbox gateway starts with the studio; what it draws and counts with loads on the first
 * image or knowledge-base call, not at start (120-230 ms each; bench/start.bench.ts).
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

export const loadSharp = once(async () => (await import('sharp')).default);

let tokenizer: { countTokens: typeof CountTokens } | undefined;

/**
 * The tokenizer (cl100k, as the gateway counts), its tables 230 ms to load: loaded before the first
 * count by the callers that count (their calls are async), and bundled as a chunk of its own, so
 * the packaged app carries the one encoding it uses.
 */
export const loadTokenizer = once(async () => {
  tokenizer = await import('gpt-tokenizer/encoding/cl100k_base');
});

/** Tokens of a text; the tokenizer must have been loaded (loadTokenizer). */
export function countTokens(text: string): number {
  if (!tokenizer) throw new Error('countTokens before loadTokenizer');
  return tokenizer.countTokens(text);
}
