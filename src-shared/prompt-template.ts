/** `{subject}` and `{style}` in a prompt, in order of first use. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(/\{([\p{L}\p{N}_-]+)\}/gu))
    if (!names.includes(match[1]!)) names.push(match[1]!);
  return names;
}

export type TemplateMode = 'cross' | 'zip';

/** How many prompts a template makes: the product of the list lengths, or the shortest list when zipped. */
export function templateCount(lists: Record<string, string[]>, names: string[], mode: TemplateMode): number {
  if (names.length === 0) return 1;
  const lengths = names.map((n) => lists[n]?.length ?? 0);
  return mode === 'cross' ? lengths.reduce((a, b) => a * b, 1) : Math.min(...lengths);
}

/** One prompt a template made, with the value each variable took in it (its parts). */
export interface TemplateRow {
  prompt: string;
  values: Record<string, string>;
}

/**
 * Expands a template into prompts: every combination of the lists (cross), or the lists taken
 * side by side (zip). `limit` stops a runaway cross product early.
 */
export function expandTemplate(
  template: string,
  lists: Record<string, string[]>,
  mode: TemplateMode,
  limit = 10_000,
): string[] {
  return expandTemplateRows(template, lists, mode, limit).map((row) => row.prompt);
}

/** The same, each prompt with its values: what the batch and the library keep as its parts. */
export function expandTemplateRows(
  template: string,
  lists: Record<string, string[]>,
  mode: TemplateMode,
  limit = 10_000,
): TemplateRow[] {
  const names = templateVariables(template);
  if (names.length === 0) return [{ prompt: template, values: {} }];
  const count = Math.min(templateCount(lists, names, mode), limit);
  const out: TemplateRow[] = [];
  for (let i = 0; i < count; i++) {
    // The picks of each list, the last list turning fastest (cross) or all together (zip).
    const picks = names.map(() => i);
    if (mode === 'cross') {
      let rest = i;
      for (let k = names.length - 1; k >= 0; k--) {
        const length = lists[names[k]!]!.length;
        picks[k] = rest % length;
        rest = Math.floor(rest / length);
      }
    }
    // In the template's order: the parts are listed (and shown) as the person wrote them.
    const values = Object.fromEntries(names.map((n, k) => [n, lists[n]![picks[k]!]!]));
    out.push({ prompt: fillTemplate(template, values), values });
  }
  return out;
}

/** The template with each variable's value put in; a variable without one is left as it is. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([\p{L}\p{N}_-]+)\}/gu, (all, n: string) => values[n] ?? all);
}
