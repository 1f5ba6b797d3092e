import { describe, expect, it } from 'vitest';
import { FaultSwitch, parseFaultSpec } from '../faults';
import { ALICE, call, startSandbox } from './harness';

describe('fault spec', () => {
  it('parses rates, counts, seed and slow_ms, and explains mistakes', () => {
    const s = parseFaultSpec('503=0.1, reset=#2, slow=0.5, slow_ms=100, seed=9, all=0.2');
    expect(s).toMatchObject({ all: 0.2, slowMs: 100, seed: 9 });
    expect(s.chances['503']).toEqual({ rate: 0.1 });
    expect(s.chances.reset).toEqual({ rate: 1, remaining: 2 });
    expect(() => parseFaultSpec('gremlins=1')).toThrow(/unknown fault kind/);
    expect(() => parseFaultSpec('503=2')).toThrow(/between 0 and 1/);
    expect(() => parseFaultSpec('503')).toThrow(/needs a value/);
  });

  it('is replayable from its seed', () => {
    const run = () => {
      const f = new FaultSwitch('all=0.3,seed=42');
      return Array.from({ length: 50 }, () => f.pick(['500', '503', 'reset']) ?? '-').join(',');
    };
    expect(run()).toBe(run());
  });
});

describe('all=R', () => {
  it('fails about R of the requests, in every HTTP way, and the rest succeed', async () => {
    const sandbox = await startSandbox({ faults: 'all=0.3,slow_ms=5,seed=3' });
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < 300; i++) {
      let outcome: string;
      try {
        const answer = await call(sandbox.url, 'GET', '/v1/images/batches/models', { key: ALICE });
        outcome = String(answer.status);
        if (answer.status >= 502) expect(answer.headers.get('content-type')).toBe('text/html');
        if (answer.status === 429) expect(answer.body.error.type).toBe('rate_limit_error');
      } catch {
        outcome = 'reset';
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    for (const kind of ['429', '500', '502', '503', '504', 'reset'])
      expect(outcomes[kind]).toBeGreaterThan(0);
    const failed = 300 - (outcomes['200'] ?? 0);
    // slow answers still succeed; about 6/7 of the faults fail the request.
    expect(failed).toBeGreaterThan(300 * 0.3 * (6 / 7) * 0.6);
    expect(failed).toBeLessThan(300 * 0.3 * (6 / 7) * 1.4);
    expect(sandbox.inspect().faultsFired.slow).toBeGreaterThan(0);
  });
});
