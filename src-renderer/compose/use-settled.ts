import { useEffect, useState } from 'react';

/** Long enough to span the keys of a word being typed, short enough to seem immediate after. */
export const SETTLE_MS = 300;

/**
 * A value once it has stopped changing for `ms`: for work on the whole draft that need not follow
 * every keystroke (in a grid of 2,000 rows, a few milliseconds each time it runs).
 */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, settled, ms]);
  return settled;
}
