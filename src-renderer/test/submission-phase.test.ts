import { describe, expect, it } from 'vitest';
import type { BatchView, SubmissionView } from '../../src-shared/batch-view';
import { submissionPhaseKey, visibleSubmissions } from '../batches/submission-phase';

const sub = (over: Partial<SubmissionView>): SubmissionView => ({
  id: 's1',
  profileId: 'p',
  taskName: 'Mugs',
  state: 'sending',
  attempts: 1,
  createdAt: 1_700_000_000_500,
  ...over,
});
const batch = (taskName: string, createdAt: number) => ({ id: 'b', taskName, createdAt }) as BatchView;

describe('submissionPhaseKey', () => {
  it('reads a first send as sending, and a resend (state flipped back to sending) as resending', () => {
    expect(submissionPhaseKey(sub({ state: 'sending', attempts: 1 }))).toBe('batches.submissionSending');
    expect(submissionPhaseKey(sub({ state: 'unknown', attempts: 1 }))).toBe('batches.submissionResending');
    expect(submissionPhaseKey(sub({ state: 'sending', attempts: 2 }))).toBe('batches.submissionResending');
  });

  it('says a submission resumed after the studio closed resumes, whatever its attempt', () => {
    expect(submissionPhaseKey(sub({ state: 'sending', attempts: 3, resumed: true }))).toBe(
      'batches.submissionResumed',
    );
    expect(submissionPhaseKey(sub({ state: 'unknown', attempts: 1, resumed: true }))).toBe(
      'batches.submissionResumed',
    );
  });
});

describe('visibleSubmissions', () => {
  const refused = sub({ id: 'r', state: 'failed' });

  it('shows submissions in flight and refusals, never a created one', () => {
    const list = [sub({ id: 'a' }), sub({ id: 'c', state: 'created' }), refused];
    expect(visibleSubmissions(list, [], []).map((s) => s.id)).toEqual(['a', 'r']);
  });

  it('hides a refusal once dismissed', () => {
    expect(visibleSubmissions([refused], [], ['r'])).toEqual([]);
  });

  it('hides a refusal once the same draft was sent again, as a new submission or as a batch', () => {
    const again = sub({ id: 'n', taskName: 'Mugs', createdAt: refused.createdAt + 5_000 });
    expect(visibleSubmissions([refused, again], [], []).map((s) => s.id)).toEqual(['n']);
    expect(visibleSubmissions([refused], [batch('Mugs', 1_700_000_000)], [])).toEqual([]);
    // A batch of that name made before the refusal, or another draft's batch, changes nothing.
    expect(
      visibleSubmissions([refused], [batch('Mugs', 1_699_999_000), batch('Cups', 1_700_000_100)], []),
    ).toEqual([refused]);
  });
});
