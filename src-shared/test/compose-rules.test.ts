import { describe, expect, it } from 'vitest';
import type { Draft } from '../draft';
import { validateDraft } from '../draft-rules';
import { splitDraft } from '../draft-split';
import { expandTemplate, templateCount, templateVariables } from '../prompt-template';

const base: Draft = {
  id: 'd',
  name: 'Mugs',
  model: 'imgvendor-3.1-flash-image',
  items: [],
  sharedReferenceIds: [],
  references: [],
  responseMime: 'image/png',
};

describe('templates', () => {
  it('expands a cross product and a zip, with a count first', () => {
    const template = 'A {subject} in {style} style';
    expect(templateVariables(template)).toEqual(['subject', 'style']);
    const lists = { subject: ['mug', 'bowl', 'vase'], style: ['ink', 'oil'] };
    expect(templateCount(lists, ['subject', 'style'], 'cross')).toBe(6);
    expect(templateCount(lists, ['subject', 'style'], 'zip')).toBe(2);
    expect(expandTemplate(template, lists, 'cross')).toEqual([
      'A mug in ink style',
      'A mug in oil style',
      'A bowl in ink style',
      'A bowl in oil style',
      'A vase in ink style',
      'A vase in oil style',
    ]);
    expect(expandTemplate(template, lists, 'zip')).toEqual(['A mug in ink style', 'A bowl in oil style']);
    expect(expandTemplate('一只{动物}', { 动物: ['猫', '狗'] }, 'cross')).toEqual(['一只猫', '一只狗']);
  });
});

describe('validation and splitting', () => {
  it('flags rows by their rules and splits a draft over the limits into fitting parts', () => {
    const items = Array.from({ length: 120 }, (_, i) => ({
      customId: `r${i}`,
      prompt: `p ${i}`,
      outputCount: 2,
      referenceIds: [],
    }));
    const draft = { ...base, items };
    const report = validateDraft(draft);
    expect(report.ok).toBe(false);
    expect(report.batch.map((b) => b.code)).toEqual(['TOO_MANY_IMAGES']);
    expect(report.totals.images).toBe(240);
    const parts = splitDraft(draft);
    expect(parts.map((p) => p.items.length)).toEqual([100, 20]);
    for (const part of parts) expect(validateDraft(part).ok).toBe(true);
    expect(parts[0]!.name).toBe('Mugs (1/2)');
  });
});
