import { describe, expect, it } from 'vitest';
import { StudioError } from '../../src-shared/studio-error';
import { studioErrorSchema } from '../../src-shared/studio-error-schema';

// StudioError.from checks an error's shape by hand (the window's first screen carries no zod):
// it must take exactly what the schema main validates with takes, and keep what the schema keeps.
const earlier = {
  submissionId: 's1',
  state: 'created',
  batchId: 'b1',
  taskName: 'Mugs',
  model: 'imgvendor-3.1-flash-image',
  sentAt: 1_700_000_000_000,
};
const budget = { verdict: 'crosses', estimate: 12.5, spent: 90, budget: 100, unknownModels: ['m'] };
const base = { code: 'STUDIO_SENT_BEFORE', message: 'Sent before.', retryable: false, source: 'studio' };

const samples: unknown[] = [
  base,
  { ...base, httpStatus: 409, requestId: 'req-1', extra: 'dropped' },
  { ...base, earlier: [earlier, { ...earlier, batchId: undefined, state: 'sending' }] },
  { ...base, earlier: [], budget: { ...budget, estimate: null, verdict: 'unknown', unknownModels: [] } },
  { ...base, budget: { ...budget, stray: true }, earlier: [{ ...earlier, stray: 1 }] },
  // Refused by the schema, each for one field.
  { ...base, httpStatus: 409.5 },
  { ...base, httpStatus: '409' },
  { ...base, requestId: 7 },
  { ...base, retryable: 'no' },
  { ...base, source: 'elsewhere' },
  { ...base, code: undefined },
  { ...base, message: null },
  { ...base, earlier: [{ ...earlier, state: 'lost' }] },
  { ...base, earlier: [{ ...earlier, sentAt: 1.5 }] },
  { ...base, earlier: [{ ...earlier, batchId: 3 }] },
  { ...base, earlier: {} },
  { ...base, earlier: [null] },
  { ...base, budget: { ...budget, estimate: undefined } },
  { ...base, budget: { ...budget, spent: Number.NaN } },
  { ...base, budget: { ...budget, budget: Infinity } },
  { ...base, budget: { ...budget, unknownModels: [1] } },
  { ...base, budget: [] },
  null,
  'a string',
  42,
  [base],
  new Error('plain'),
];

describe('StudioError.from reads an error view exactly as its schema does', () => {
  it.each(samples.map((s, i) => [i, s]))('sample %i', (_i, sample) => {
    const parsed = studioErrorSchema.safeParse(sample);
    const view = StudioError.from(sample).toView();
    if (parsed.success) expect(view).toEqual(parsed.data);
    else expect(view.code).toBe('STUDIO_INTERNAL');
  });

  it('keeps a StudioError as it is', () => {
    const error = new StudioError({ code: 'STUDIO_OFFLINE', message: 'x', retryable: true });
    expect(StudioError.from(error)).toBe(error);
  });
});
