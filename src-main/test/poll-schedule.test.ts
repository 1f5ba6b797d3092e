import { describe, expect, it } from 'vitest';
import { backoffDelayMs, pollDelayMs } from '../services/batches/poll-schedule';
import { seededRandom } from './helpers/seeded-random';

describe('the poll schedule of the batch API', () => {
  it('polls every 10-15 s for two minutes, then 30 s, rising to 60 s', () => {
    const random = seededRandom(1);
    for (let age = 0; age < 120_000; age += 1_000) {
      const d = pollDelayMs(age, random);
      expect(d).toBeGreaterThanOrEqual(10_000);
      expect(d).toBeLessThanOrEqual(15_000);
    }
    for (let age = 120_000; age < 600_000; age += 10_000) {
      const d = pollDelayMs(age, random);
      expect(d).toBeGreaterThanOrEqual(27_000);
      expect(d).toBeLessThanOrEqual(33_000);
    }
    const mid = pollDelayMs(1_200_000, () => 0.5);
    expect(mid).toBeCloseTo(45_000, -2);
    expect(pollDelayMs(3_600_000, () => 0.5)).toBe(60_000);
    expect(pollDelayMs(10 * 3_600_000, () => 1)).toBeLessThanOrEqual(66_000);
  });

  it('never polls faster than every 10 s', () => {
    const random = seededRandom(7);
    for (let age = 0; age < 7_200_000; age += 3_333)
      expect(pollDelayMs(age, random)).toBeGreaterThanOrEqual(10_000);
  });

  it('backs off on errors, honouring Retry-After, up to five minutes', () => {
    expect(backoffDelayMs(30_000, 1, undefined, () => 0.5)).toBe(60_000);
    expect(backoffDelayMs(30_000, 3, undefined, () => 0.5)).toBe(240_000);
    expect(backoffDelayMs(30_000, 10, undefined, () => 0.5)).toBe(300_000);
    expect(backoffDelayMs(10_000, 1, 90_000, () => 0.5)).toBe(90_000);
  });
});
