import { fillTemplate, templateVariables } from './prompt-template';

/**
 * Parts for rows typed or pasted by hand: the words that vary between rows become variables of one
 * template, as a spreadsheet user splits a column. Words are found with Intl.Segmenter, which also
 * splits Chinese (no spaces) into words. Every suggestion fills back to each row's prompt exactly.
 */

export interface SuggestedParts {
  template: string;
  /** The variables, in the template's order. */
  names: string[];
  /** Per prompt, in the order given: each variable's value. */
  values: Record<string, string>[];
}

interface Token {
  text: string;
  word: boolean;
}

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
/** Chinese (and Japanese) runs: words found by the segmenter's dictionary, as no spaces part them. */
const CJK = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+)/u;
/** Elsewhere words are runs of letters and digits; the segmenter is 10x slower on them. */
const PLAIN = /[\p{L}\p{N}\p{M}_'’-]+|\s+|[^\p{L}\p{N}\p{M}\s_'’-]/gu;

function tokens(prompt: string): Token[] {
  return prompt
    .split(CJK)
    .flatMap((run, i) =>
      i % 2
        ? [...segmenter.segment(run)].map((s) => ({ text: s.segment, word: s.isWordLike ?? false }))
        : (run.match(PLAIN) ?? []).map((text) => ({ text, word: /[\p{L}\p{N}]/u.test(text) })),
    );
}

/** The longest common subsequence of two word lists. */
function lcs(a: readonly string[], b: readonly string[]): string[] {
  const width = b.length + 1;
  const table = new Uint16Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * width + j] =
        a[i] === b[j]
          ? table[(i + 1) * width + j + 1]! + 1
          : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
  const out: string[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      out.push(a[i]!);
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++;
    else j++;
  }
  return out;
}

/** The stretches of a row between the shared words: `skeleton.length + 1` lists of tokens. */
function slotsOf(row: Token[], skeleton: readonly string[]): Token[][] {
  const slots: Token[][] = [[]];
  let k = 0;
  for (const token of row) {
    if (k < skeleton.length && token.word && token.text === skeleton[k]) {
      k++;
      slots.push([]);
    } else slots[slots.length - 1]!.push(token);
  }
  return slots;
}

const joined = (list: readonly Token[]) => list.map((t) => t.text).join('');
/** Punctuation between words: "wood, soft" is two parts when every row has its comma. */
const isSeparator = (t: Token) => !t.word && t.text.trim() !== '';

/**
 * One stretch between shared words, the same stretch of every row: what all rows start and end it
 * with stays fixed text (spaces above all); punctuation every row has there in the same order
 * splits it further; what still differs becomes a variable.
 */
function emit(column: Token[][], out: SuggestedParts, name: (index: number) => string): void {
  const first = column[0]!;
  const shortest = Math.min(...column.map((c) => c.length));
  let head = 0;
  while (head < shortest && column.every((c) => c[head]!.text === first[head]!.text)) head++;
  let tail = 0;
  while (
    tail < shortest - head &&
    column.every((c) => c[c.length - 1 - tail]!.text === first[first.length - 1 - tail]!.text)
  )
    tail++;
  out.template += joined(first.slice(0, head));
  const middles = column.map((c) => c.slice(head, c.length - tail));
  const texts = middles.map(joined);
  if (texts.every((t) => t === texts[0])) out.template += texts[0]!;
  else {
    const marks = middles.map((m) =>
      m
        .filter(isSeparator)
        .map((t) => t.text)
        .join('\u0000'),
    );
    if (marks[0] && marks.every((m) => m === marks[0])) {
      const pieces = middles.map((m) => {
        const list: Token[][] = [[]];
        for (const t of m)
          if (isSeparator(t)) list.push([]);
          else list[list.length - 1]!.push(t);
        return list;
      });
      const separators = middles[0]!.filter(isSeparator);
      pieces[0]!.forEach((_, j) => {
        emit(
          pieces.map((p) => p[j]!),
          out,
          name,
        );
        if (j < separators.length) out.template += separators[j]!.text;
      });
    } else {
      const variable = name(out.names.length);
      out.names.push(variable);
      out.template += `{${variable}}`;
      texts.forEach((t, i) => (out.values[i]![variable] = t));
    }
  }
  out.template += joined(first.slice(first.length - tail));
}
/** Braces in the fixed text would read as variables: a prompt holding them gets no suggestion. */
const BRACES = /[{}]/;

/** Rows handled between two pauses of `suggestPartsSteps`: a few milliseconds of work. */
const ROWS_A_STEP = 100;

/**
 * A template and each prompt's values, or null where rows do not vary (fewer than two different
 * prompts) or cannot be told apart safely. `name(i)` names the i-th variable (0-based).
 */
export function suggestParts(
  prompts: readonly string[],
  name: (index: number) => string = (i) => `part${i + 1}`,
): SuggestedParts | null {
  const steps = suggestPartsSteps(prompts, name);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `suggestParts` in steps: it pauses (yields) every ROWS_A_STEP rows and between the template's
 * stretches, so the window can run it a slice at a time between frames (use-suggested-parts.ts)
 * and never stops answering for the half second 10,000 rows take.
 */
export function* suggestPartsSteps(
  prompts: readonly string[],
  name: (index: number) => string = (i) => `part${i + 1}`,
): Generator<void, SuggestedParts | null> {
  if (new Set(prompts).size < 2 || prompts.length > 10_000 || prompts.some((p) => BRACES.test(p)))
    return null;
  const rows: Token[][] = [];
  for (const prompt of prompts) {
    rows.push(tokens(prompt));
    if (rows.length % ROWS_A_STEP === 0) yield;
  }
  // Long rows cost the table's square: a prompt of thousands of words is not split.
  if (rows.some((r) => r.length > 2000)) return null;
  let skeleton = rows[0]!.filter((t) => t.word).map((t) => t.text);
  // The alignment costs the words of the shared part times each row's: past this budget (thousands
  // of long rows) the studio offers nothing rather than hold the window.
  let budget = 50_000_000;
  for (let r = 1; r < rows.length; r++) {
    const words = rows[r]!.filter((t) => t.word).map((t) => t.text);
    budget -= (skeleton.length + 1) * (words.length + 1);
    if (budget < 0) return null;
    skeleton = lcs(skeleton, words);
    if (r % ROWS_A_STEP === 0) yield;
  }
  const slots: Token[][][] = [];
  for (const row of rows) {
    slots.push(slotsOf(row, skeleton));
    if (slots.length % (ROWS_A_STEP * 5) === 0) yield;
  }
  const out: SuggestedParts = { template: '', names: [], values: prompts.map(() => ({})) };
  for (let s = 0; s <= skeleton.length; s++) {
    emit(
      slots.map((r) => r[s]!),
      out,
      name,
    );
    if (s < skeleton.length) out.template += skeleton[s]!;
    yield;
  }
  const { template, names, values } = out;
  if (!names.length || templateVariables(template).length !== names.length) return null;
  for (let i = 0; i < prompts.length; i++) {
    if (fillTemplate(template, values[i]!) !== prompts[i]) return null;
    if ((i + 1) % (ROWS_A_STEP * 5) === 0) yield;
  }
  return { template, names, values };
}

/**
 * Each variable's value in a prompt made from `template`, or null where the prompt does not fit
 * it: a template the person changed is matched against every row again.
 */
export function matchTemplate(template: string, prompt: string): Record<string, string> | null {
  const names = templateVariables(template);
  const seen = new Map<string, number>();
  let pattern = '';
  let last = 0;
  for (const m of template.matchAll(/\{([\p{L}\p{N}_-]+)\}/gu)) {
    pattern += escape(template.slice(last, m.index));
    const known = seen.get(m[1]!);
    if (known !== undefined) pattern += `\\${known}`;
    else {
      seen.set(m[1]!, seen.size + 1);
      pattern += '([\\s\\S]*?)';
    }
    last = m.index + m[0].length;
  }
  pattern += escape(template.slice(last));
  const match = new RegExp(`^${pattern}$`, 'u').exec(prompt);
  if (!match) return null;
  return Object.fromEntries(names.map((n) => [n, match[seen.get(n)!]!]));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
