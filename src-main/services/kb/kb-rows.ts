import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import Papa from 'papaparse';
import type { KbCheckedRow, KbMode, KbRow } from '../../../src-shared/kb-view';
import { StudioError } from '../../../src-shared/studio-error';

/** The knowledge base's limits, in GPT-style BPE tokens (cl100k). */
export const KB_LIMITS: Record<KbMode, number> = { index: 3000, qa: 3300 };

export const KB_CSV_TEMPLATE =
  '\uFEFFquestion,answer\r\n"What is our house watercolor style?","Soft edges, muted palette, visible paper grain."\r\n';

const key = (r: KbRow) => `${r.q.trim().replace(/\s+/g, ' ')}\u0000${r.a.trim().replace(/\s+/g, ' ')}`;

/** Cuts text into parts under the limit, at paragraph, then sentence, then hard boundaries. */
export function splitToFit(text: string, limit: number): string[] {
  const parts: string[] = [];
  let current = '';
  const pieces = text.split(/(?<=\n\n)|(?<=[.!?。！？])\s*/u).filter((p) => p.trim());
  for (const piece of pieces) {
    if (countTokens(current + piece) <= limit) {
      current += piece;
      continue;
    }
    if (current.trim()) parts.push(current.trim());
    current = piece;
    while (countTokens(current) > limit) {
      const cut = Math.floor(current.length * (limit / countTokens(current)) * 0.95);
      parts.push(current.slice(0, cut).trim());
      current = current.slice(cut);
    }
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/** Checks rows before upload: tokens against the mode's limit, with a split for those over it, and repeats. */
export function checkRows(rows: KbRow[], mode: KbMode): KbCheckedRow[] {
  const limit = KB_LIMITS[mode];
  const seen = new Set<string>();
  return rows.map((row) => {
    const q = row.q.trim();
    const a = (row.a ?? '').trim();
    const tokens = mode === 'index' ? countTokens(q) + countTokens(a) : countTokens(q);
    const over = q === '' || tokens > limit;
    const k = key({ q, a });
    const duplicate = seen.has(k);
    seen.add(k);
    const budget = mode === 'index' ? limit - countTokens(a) : limit;
    return {
      q,
      a,
      tokens,
      limit,
      over,
      duplicate,
      ...(q && tokens > limit && budget > 50 ? { split: splitToFit(q, budget) } : {}),
    };
  });
}

export function readKbCsv(text: string): KbRow[] {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  if (result.data.length === 0)
    throw new StudioError({ code: 'STUDIO_IMPORT_UNREADABLE', message: 'The CSV has no rows.' });
  const [first, ...rest] = result.data;
  const header = first!.map((c) => c.trim().toLowerCase());
  const qi = header.findIndex((h) => ['question', 'q', '问题'].includes(h));
  const ai = header.findIndex((h) => ['answer', 'a', '答案'].includes(h));
  const hasHeader = qi >= 0;
  const rows = hasHeader ? rest : result.data;
  return rows.map((r) => ({
    q: r[hasHeader ? qi : 0] ?? '',
    a: r[hasHeader ? (ai >= 0 ? ai : 1) : 1] ?? '',
  }));
}
