import Papa from 'papaparse';
import type { KbCheckedRow, KbMode, KbRow } from '../../../src-shared/kb-view';
import { StudioError } from '../../../src-shared/studio-error';
import { tableText } from '../drafts/table-text';
import { loadTokenCounter } from './token-count';

/** The knowledge base's limits, in GPT-style BPE tokens (cl100k). */
export const KB_LIMITS: Record<KbMode, number> = { index: 3000, qa: 3300 };

export const KB_CSV_TEMPLATE =
  '\uFEFFquestion,answer\r\n"What is our house watercolor style?","Soft edges, muted palette, visible paper grain."\r\n';

type CountTokens = (text: string) => number;

const key = (r: KbRow) => `${r.q.trim().replace(/\s+/g, ' ')}\u0000${r.a.trim().replace(/\s+/g, ' ')}`;

/** Cuts text into parts under the limit, at paragraph, then sentence, then hard boundaries. */
export function splitToFit(text: string, limit: number, countTokens: CountTokens): string[] {
  const parts: string[] = [];
  let current = '';
  // Each piece keeps the space after it, so the parts read as the text did.
  const pieces = text.split(/(?<=\n\n|[.!?。！？]\s*)(?=\S)/u).filter((p) => p.trim());
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

/**
 * What to do with a row over the limit: the long part is cut into pieces that each fit beside the
 * other part, one row per piece. When both parts are long there is no cut that keeps their meaning,
 * so the row is only flagged.
 */
function overLimit(
  q: string,
  a: string,
  qTokens: number,
  aTokens: number,
  limit: number,
  countTokens: CountTokens,
): Pick<KbCheckedRow, 'problem' | 'split'> {
  if (qTokens > limit / 2 && aTokens > limit / 2) return { problem: 'both' };
  if (qTokens >= aTokens) {
    const split = splitToFit(q, limit - aTokens, countTokens).map((part) => ({ q: part, a }));
    return { problem: 'question', split };
  }
  const split = splitToFit(a, limit - qTokens, countTokens).map((part) => ({ q, a: part }));
  return { problem: 'answer', split };
}

/** Checks rows before upload: tokens against the mode's limit, with a split for those over it, and repeats. */
export async function checkRows(rows: KbRow[], mode: KbMode): Promise<KbCheckedRow[]> {
  const countTokens = await loadTokenCounter();
  const limit = KB_LIMITS[mode];
  const seen = new Set<string>();
  return rows.map((row) => {
    const q = row.q.trim();
    const a = (row.a ?? '').trim();
    const qTokens = countTokens(q);
    // In qa mode only the question is counted: the answer is the model's to write.
    const aTokens = mode === 'index' ? countTokens(a) : 0;
    const tokens = qTokens + aTokens;
    const k = key({ q, a });
    const duplicate = seen.has(k);
    seen.add(k);
    const fit =
      q === ''
        ? { problem: 'empty' as const }
        : tokens > limit
          ? overLimit(q, a, qTokens, aTokens, limit, countTokens)
          : {};
    return { q, a, tokens, limit, over: fit.problem !== undefined, duplicate, ...fit };
  });
}

/** A CSV's rows, read in the encoding its bytes fit (table-text.ts), never garbled into mojibake. */
export function readKbCsv(name: string, bytes: Uint8Array): KbRow[] {
  const { text } = tableText(name, bytes);
  const result = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
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
