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
  const names = templateVariables(template);
  const fill = (values: Record<string, string>) =>
    template.replace(/\{([\p{L}\p{N}_-]+)\}/gu, (all, n: string) => values[n] ?? all);
  if (names.length === 0) return [template];
  const count = Math.min(templateCount(lists, names, mode), limit);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const values: Record<string, string> = {};
    if (mode === 'zip') {
      for (const n of names) values[n] = lists[n]![i]!;
    } else {
      let rest = i;
      for (let k = names.length - 1; k >= 0; k--) {
        const list = lists[names[k]!]!;
        values[names[k]!] = list[rest % list.length]!;
        rest = Math.floor(rest / list.length);
      }
    }
    out.push(fill(values));
  }
  return out;
}
