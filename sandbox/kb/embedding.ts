import { createHash } from 'node:crypto';

const DIMENSIONS = 512;
const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const STOPWORDS = new Set(
  'a an and are as at be by for from has in is it its of on or the this to was were will with what which who how our your'.split(
    ' ',
  ),
);

/**
 * Terms of a text: lower-cased Latin words and, for Chinese, single characters and bigrams, since
 * Chinese has no spaces between words.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const run of text.toLowerCase().match(/[\u3400-\u9fff\uf900-\ufaff]+|[\p{L}\p{N}]+/gu) ?? []) {
    if (CJK.test(run)) {
      const chars = [...run];
      chars.forEach((c, i) => {
        out.push(c);
        if (i + 1 < chars.length) out.push(c + chars[i + 1]);
      });
    } else if (!STOPWORDS.has(run) && (run.length > 1 || /\d/.test(run))) {
      out.push(run);
    }
  }
  return out;
}

/**
 * A deterministic stand-in for an embedding model: signed feature hashing of the terms with
 * sublinear term frequency, L2-normalised, so cosine similarity is a dot product.
 */
export function embed(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  const counts = new Map<string, number>();
  for (const term of terms(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  for (const [term, count] of counts) {
    const digest = createHash('md5').update(term).digest();
    const slot = digest.readUInt16BE(0) % DIMENSIONS;
    const sign = digest[2]! & 1 ? 1 : -1;
    vector[slot]! += sign * (1 + Math.log(count));
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((v) => Math.round((v / norm) * 1e6) / 1e6);
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * (b[i] ?? 0);
  return dot;
}
