import { createRequire } from 'node:module';
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

export const loadCanvas = once(() => import('@napi-rs/canvas'));

const requireHere = createRequire(import.meta.url);
let tokenizer: { countTokens: typeof CountTokens } | undefined;

/** Tokens of a text (cl100k); the tokenizer's tables are required on the first count. */
export function countTokens(text: string): number {
  tokenizer ??= requireHere('gpt-tokenizer/encoding/cl100k_base') as { countTokens: typeof CountTokens };
  return tokenizer.countTokens(text);
}
