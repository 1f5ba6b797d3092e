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
