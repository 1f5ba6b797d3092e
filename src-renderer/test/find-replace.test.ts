import { describe, expect, it } from 'vitest';
import { emptyDraft, rowsFromPrompts } from '../shared/compose-store';
import { applyReplacements, replacementsIn } from '../compose/find-replace';

const items = rowsFromPrompts(
  [],
  ['Mug on linen, linen backdrop', 'Mug on Linen', 'Linens and oaks', '亚麻布上的陶瓷杯', 'cost $5'],
);
const opts = (matchCase = false, wholeWord = false) => ({ matchCase, wholeWord });

describe('find and replace in prompts', () => {
  it('counts and previews every changed prompt, case ignored by default', () => {
    const found = replacementsIn(items, 'linen', 'oak', opts());
    expect(found.map((r) => [r.row, r.matches])).toEqual([
      [0, 2],
      [1, 1],
      [2, 1],
    ]);
    expect(found[0]!.after).toBe('Mug on oak, oak backdrop');
  });

  it('matches case when asked', () => {
    expect(replacementsIn(items, 'Linen', 'Oak', opts(true)).map((r) => r.row)).toEqual([1, 2]);
  });

  it('finds whole English words only when asked', () => {
    expect(replacementsIn(items, 'linen', 'oak', opts(false, true)).map((r) => r.row)).toEqual([0, 1]);
  });

  it('finds Chinese inside a sentence even with whole word on, as it has no spaces between words', () => {
    const found = replacementsIn(items, '亚麻布', '橡木', opts(false, true));
    expect(found.map((r) => r.after)).toEqual(['橡木上的陶瓷杯']);
  });

  it('writes the replacement as typed, $ signs and all, and finds special characters literally', () => {
    expect(replacementsIn(items, '$5', '$&10', opts())[0]!.after).toBe('cost $&10');
  });

  it('applies as one change, leaving a prompt edited since the preview alone', () => {
    const d = { ...emptyDraft('m'), items };
    const found = replacementsIn(items, 'mug', 'cup', opts());
    const edited = { ...d, items: d.items.map((i, n) => (n === 1 ? { ...i, prompt: 'changed' } : i)) };
    const next = applyReplacements(found)(edited);
    expect(next.items.map((i) => i.prompt).slice(0, 2)).toEqual(['cup on linen, linen backdrop', 'changed']);
    expect(next.items[2]).toBe(edited.items[2]);
  });
});
