import { createRequire } from 'node:module';

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
let tokenizer: { countTokens(text: string): number } | undefined;

/** Tokens of a text (cl100k); the tokenizer's tables are required on the first count. */
export function countTokens(text: string): number {
  tokenizer ??= requireHere('gpt-tokenizer/encoding/cl100k_base') as { countTokens(text: string): number };
  return tokenizer.countTokens(text);
}
