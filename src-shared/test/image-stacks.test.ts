import { describe, expect, it } from 'vitest';
import { hammingDistance, stackLeaders, STACK_NEAR_IDENTICAL } from '../image-stacks';

describe('near-duplicate stacks', () => {
  it('counts differing bits, and nothing is near a missing hash', () => {
    expect(hammingDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hammingDistance('0000000000000000', '000000000000000f')).toBe(4);
    expect(hammingDistance('ffffffffffffffff', '0000000000000000')).toBe(64);
    expect(hammingDistance(null, '0000000000000000')).toBe(Infinity);
  });

  it('groups transitively within a scope, never across scopes, led by the first image', () => {
    const a = '0000000000000000';
    const b = '0000000000000007'; // 3 from a
    const c = '000000000000007f'; // 4 from b, 7 from a: in by way of b
    const far = 'ffffffff00000000';
    const leaders = stackLeaders([
      { id: 'a', hash: a, scope: 'batch-1' },
      { id: 'b', hash: b, scope: 'batch-1' },
      { id: 'c', hash: c, scope: 'batch-1' },
      { id: 'far', hash: far, scope: 'batch-1' },
      { id: 'other-batch', hash: a, scope: 'batch-2' },
      { id: 'unhashed', hash: null, scope: 'batch-1' },
    ]);
    expect(STACK_NEAR_IDENTICAL).toBe(4);
    expect(leaders.get('a')).toBe('a');
    expect(leaders.get('b')).toBe('a');
    expect(leaders.get('c')).toBe('a');
    expect(leaders.get('far')).toBe('far');
    expect(leaders.get('other-batch')).toBe('other-batch');
    expect(leaders.get('unhashed')).toBe('unhashed');
  });
});
