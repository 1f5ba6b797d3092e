import { describe, expect, it } from 'vitest';
import type { BatchView } from '../../src-shared/batch-view';
import { runModelsOf } from '../compose/run-models';
import { groupByRun } from '../batches/RunGroup';

const batch = (id: string, runId: string | null) => ({ id, runId }) as BatchView;
const family = (id: string, runId: string | null) => ({ root: batch(id, runId), children: [] });

describe('groupByRun', () => {
  it('gathers a run’s families where its first one stands, and leaves the rest alone', () => {
    const entries = groupByRun([
      family('a', 'run-1'),
      family('b', null),
      family('c', 'run-1'),
      family('d', 'run-2'),
    ]);
    expect(
      entries.map((e) => ('families' in e ? e.families.map((f) => f.root.id) : e.family.root.id)),
    ).toEqual([['a', 'c'], 'b', ['d']]);
  });
});

describe('runModelsOf', () => {
  it('puts the draft’s own model first, each model once, and drops blanks', () => {
    expect(runModelsOf('m1', ['m2', 'm1', 'm2', ''])).toEqual(['m1', 'm2']);
    expect(runModelsOf('m1', [])).toEqual(['m1']);
  });
});
