import { describe, expect, it } from 'vitest';
import { matchTemplate, suggestParts, suggestPartsSteps } from '../prompt-parts-suggest';
import { expandTemplateRows, fillTemplate } from '../prompt-template';
import { pickInterval, rankWhatWorked } from '../what-worked';

describe('a template row keeps its parts', () => {
  it('gives each prompt the value of every variable, in the template order', () => {
    const rows = expandTemplateRows(
      'A {subject} on {surface}',
      { subject: ['mug', 'bowl'], surface: ['oak', 'slate'] },
      'cross',
    );
    expect(rows).toEqual([
      { prompt: 'A mug on oak', values: { subject: 'mug', surface: 'oak' } },
      { prompt: 'A mug on slate', values: { subject: 'mug', surface: 'slate' } },
      { prompt: 'A bowl on oak', values: { subject: 'bowl', surface: 'oak' } },
      { prompt: 'A bowl on slate', values: { subject: 'bowl', surface: 'slate' } },
    ]);
    expect(Object.keys(rows[0]!.values)).toEqual(['subject', 'surface']);
  });
});

describe('parts for rows typed by hand', () => {
  it('finds the words that vary between English rows, split at the commas every row has', () => {
    const prompts = [
      'A red cat on wood, soft light',
      'A big blue dog on marble, hard light',
      'A red cat on stone, soft light',
    ];
    const found = suggestParts(prompts)!;
    expect(found.template).toBe('A {part1} on {part2}, {part3} light');
    expect(found.values).toEqual([
      { part1: 'red cat', part2: 'wood', part3: 'soft' },
      { part1: 'big blue dog', part2: 'marble', part3: 'hard' },
      { part1: 'red cat', part2: 'stone', part3: 'soft' },
    ]);
    prompts.forEach((p, i) => expect(fillTemplate(found.template, found.values[i]!)).toBe(p));
  });

  it('finds them in Chinese, where words have no spaces between them', () => {
    const prompts = ['一只猫在木头上，柔和的光', '一只狗在大理石上，强烈的光', '一只猫在石头上，柔和的光'];
    const found = suggestParts(prompts, (i) => `部分${i + 1}`)!;
    expect(found.template).toBe('一只{部分1}在{部分2}上，{部分3}的光');
    expect(found.values[1]).toEqual({ 部分1: '狗', 部分2: '大理石', 部分3: '强烈' });
    prompts.forEach((p, i) => expect(fillTemplate(found.template, found.values[i]!)).toBe(p));
  });

  it('offers nothing where rows do not vary, or hold braces', () => {
    expect(suggestParts(['A mug', 'A mug'])).toBeNull();
    expect(suggestParts(['A mug'])).toBeNull();
    expect(suggestParts(['A {mug}', 'A bowl'])).toBeNull();
  });

  it('reads a template the person changed back out of each row, or says it does not fit', () => {
    expect(matchTemplate('A {color} {animal} on {surface}', 'A big blue dog on marble')).toEqual({
      color: 'big',
      animal: 'blue dog',
      surface: 'marble',
    });
    expect(matchTemplate('一只{动物}在{表面}上', '一只猫在木头上')).toEqual({ 动物: '猫', 表面: '木头' });
    expect(matchTemplate('A {x} on oak', 'A mug on slate')).toBeNull();
    // Special characters of regular expressions in the fixed text are only text.
    expect(matchTemplate('(1+1) {x}?', '(1+1) two?')).toEqual({ x: 'two' });
  });
});

describe('the ranking rule of What worked', () => {
  const row = (picked: number, images: number, name: string) => {
    const pickInterval_ = pickInterval(picked, images);
    return { values: { v: name }, images, picked, pickInterval: pickInterval_, score: pickInterval_.low };
  };

  it('does not put 1 of 1 above 40 of 50', () => {
    const ranked = rankWhatWorked([
      row(1, 1, 'one of one'),
      row(40, 50, 'forty of fifty'),
      row(2, 3, 'two of three'),
    ]);
    expect(ranked.map((r) => r.values.v)).toEqual(['forty of fifty', 'two of three', 'one of one']);
  });

  it('gives the exact 95 % Wilson interval', () => {
    // As published tables give it for 40 of 50 (p = 0.8, z = 1.96).
    const i = pickInterval(40, 50);
    expect(i.low).toBeCloseTo(0.6696, 4);
    expect(i.high).toBeCloseTo(0.8876, 4);
    const one = pickInterval(1, 1);
    expect(one.low).toBeCloseTo(0.2065, 4);
    expect(one.high).toBe(1);
    expect(pickInterval(0, 10).low).toBe(0);
    expect(pickInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it('breaks a tie by more images, then by the values', () => {
    const ranked = rankWhatWorked([row(0, 2, 'b'), row(0, 5, 'c'), row(0, 2, 'a')]);
    expect(ranked.map((r) => r.values.v)).toEqual(['c', 'a', 'b']);
  });
});

describe('parts for many rows', () => {
  it('splits 10,000 rows typed by hand, or offers nothing where they are too long to align', () => {
    const subjects = ['mug', 'bowl', 'vase', 'jug', 'cup'];
    const prompts = Array.from({ length: 10_000 }, (_, i) => `A ${subjects[i % 5]} number ${i} on oak`);
    const found = suggestParts(prompts)!;
    expect(found.template).toBe('A {part1} number {part2} on oak');
    expect(found.values[9_999]).toEqual({ part1: 'cup', part2: '9999' });
    const long = Array.from({ length: 200 }, (_, i) => `${'word '.repeat(1500)}${i}`);
    expect(suggestParts(long)).toBeNull();
  });

  it('works out the same parts in steps, a hundred rows each, for the window to run between frames', () => {
    const subjects = ['mug', 'bowl', 'vase', 'jug', 'cup'];
    const prompts = Array.from({ length: 10_000 }, (_, i) => `A ${subjects[i % 5]} number ${i} on oak`);
    const steps = suggestPartsSteps(prompts);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    // 10,000 rows read, aligned and checked, 100 (500 for the check) between two pauses.
    expect(pauses).toBeGreaterThanOrEqual(10_000 / 100 + 10_000 / 100 + 10_000 / 500);
    expect(step.value).toEqual(suggestParts(prompts));
  });
});
