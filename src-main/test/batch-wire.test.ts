import { describe, expect, it } from 'vitest';
import { wireBatchSchema, wireItemSchema } from '../services/gateway/batch-wire';

describe('reading the batch API loosely and correctly', () => {
  it('keeps null as null: an unsettled batch has no actual cost yet', () => {
    const batch = wireBatchSchema.parse({
      id: 'b',
      status: 'running',
      actual_cost: null,
      settled_at: null,
      created_at: '1700000000',
      extra: 1,
    });
    expect(batch.actual_cost).toBeNull();
    expect(batch.settled_at).toBeNull();
    expect(batch.created_at).toBe(1700000000);
    expect((batch as Record<string, unknown>).extra).toBe(1);
    expect(wireBatchSchema.parse({ id: 'b', status: 'completed', actual_cost: '0.5' }).actual_cost).toBe(0.5);
  });

  it('reads succeeded as success', () => {
    expect(wireItemSchema.parse({ custom_id: 'a', status: 'succeeded' }).status).toBe('success');
  });
});

describe('money and counts from a broken gateway', () => {
  it('refuses an amount or a count below zero: spending sums them against the budget', () => {
    for (const field of ['estimated_cost', 'hold_amount', 'actual_cost', 'item_count', 'success_count'])
      for (const value of [-0.35, '-1', -1e308])
        expect(
          wireBatchSchema.safeParse({ id: 'b', status: 'completed', [field]: value }).success,
          `${field} ${value}`,
        ).toBe(false);
    expect(wireBatchSchema.parse({ id: 'b', status: 'completed', actual_cost: 0 }).actual_cost).toBe(0);
  });
});
