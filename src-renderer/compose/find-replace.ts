import type { Draft, DraftItem } from '../../src-shared/draft';

export interface FindOptions {
  matchCase: boolean;
  wholeWord: boolean;
}

/** One prompt a replace would change, with its text before and after. */
export interface Replacement {
  row: number;
  before: string;
  after: string;
  matches: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The search as a regular expression. Whole word looks at Latin letters, digits and `_` on either
 * side: "oak" finds "oak" but not "oaks" or "cloak". Chinese and Japanese put no spaces between
 * words, so a CJK search has no word edges to find and matches wherever it occurs, as with whole word
 * off; an English word right beside Chinese text counts as whole.
 */
export function findPattern(query: string, options: FindOptions): RegExp | undefined {
  if (!query) return undefined;
  const body = escape(query);
  const source = options.wholeWord
    ? `(?<![\\p{Script=Latin}\\p{N}_])${body}(?![\\p{Script=Latin}\\p{N}_])`
    : body;
  return new RegExp(source, options.matchCase ? 'gu' : 'giu');
}

/** Every prompt the replace changes, in row order: the preview shown before it is applied. */
export function replacementsIn(
  items: readonly DraftItem[],
  query: string,
  replacement: string,
  options: FindOptions,
): Replacement[] {
  const pattern = findPattern(query, options);
  if (!pattern) return [];
  const out: Replacement[] = [];
  items.forEach((item, row) => {
    let matches = 0;
    // A function, so "$&" or "$1" in the replacement is written as typed.
    const after = item.prompt.replace(pattern, () => (matches++, replacement));
    if (matches) out.push({ row, before: item.prompt, after, matches });
  });
  return out;
}

/** The replacements applied to the draft: given to `change` whole, one undo step. */
export function applyReplacements(replacements: readonly Replacement[]) {
  return (d: Draft): Draft => {
    if (!replacements.length) return d;
    const byRow = new Map(replacements.map((r) => [r.row, r]));
    return {
      ...d,
      items: d.items.map((item, row) => {
        const r = byRow.get(row);
        // Only a prompt still as previewed is changed: one edited meanwhile is left alone.
        return r && item.prompt === r.before ? { ...item, prompt: r.after } : item;
      }),
    };
  };
}
