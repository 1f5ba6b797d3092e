const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/**
 * Words for the full-text index: Latin words as they are, and Chinese, which has no spaces, as
 * single characters and overlapping pairs, so "陶瓷杯" finds "亚麻布上的陶瓷杯".
 */
export function searchTerms(text: string): string[] {
  const out: string[] = [];
  for (const run of text.toLowerCase().match(/[\u3400-\u9fff\uf900-\ufaff]+|[\p{L}\p{N}]+/gu) ?? []) {
    if (CJK.test(run)) {
      const chars = [...run];
      chars.forEach((c, i) => {
        out.push(c);
        if (i + 1 < chars.length) out.push(c + chars[i + 1]);
      });
    } else {
      out.push(run);
    }
  }
  return out;
}
