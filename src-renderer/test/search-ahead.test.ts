import { describe, expect, it } from 'vitest';
import { searchAhead } from '../library/search-ahead';

/** A send whose answers the test gives, one by one. */
function gateway() {
  const sent: string[] = [];
  const answers: (() => void)[] = [];
  const send = (text: string) => {
    sent.push(text);
    return new Promise<void>((resolve) => answers.push(resolve));
  };
  const answer = async () => {
    answers.shift()!();
    // The answer's finally, then the next send.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { sent, send, answer };
}

describe('searching ahead while a person types', () => {
  it('asks the first letter at once, and only the newest text typed while it was out', async () => {
    const g = gateway();
    const ask = searchAhead(g.send);
    ask('b');
    expect(g.sent).toEqual(['b']);
    ask('br');
    ask('bra');
    ask('bras');
    expect(g.sent).toEqual(['b']);
    await g.answer();
    expect(g.sent).toEqual(['b', 'bras']);
    ask('brass');
    await g.answer();
    expect(g.sent).toEqual(['b', 'bras', 'brass']);
    await g.answer();
    ask('brassy');
    expect(g.sent).toEqual(['b', 'bras', 'brass', 'brassy']);
  });

  it('goes on after a search that failed', async () => {
    const sent: string[] = [];
    let fail: (e: Error) => void = () => undefined;
    const ask = searchAhead((text: string) => {
      sent.push(text);
      return new Promise((_, reject) => (fail = reject));
    });
    ask('a');
    ask('ab');
    fail(new Error('gateway down'));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(sent).toEqual(['a', 'ab']);
  });
});
