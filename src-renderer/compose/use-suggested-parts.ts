import { useEffect, useState } from 'react';
import { suggestPartsSteps, type SuggestedParts } from '../../src-shared/prompt-parts-suggest';

/** Work done between two frames: well under the 50 ms after which a click waits. */
const SLICE_MS = 12;

/**
 * The parts suggested for these prompts, worked out a slice at a time (suggestPartsSteps) between
 * the window's own tasks: 10,000 rows took half a second in one go, during which nothing answered.
 * `done` is false until the answer is there; new prompts start it again.
 */
export function useSuggestedParts(
  prompts: readonly string[],
  name: (index: number) => string,
): { done: boolean; parts: SuggestedParts | null } {
  const [answer, setAnswer] = useState<{ of: readonly string[]; parts: SuggestedParts | null }>();
  useEffect(() => {
    const steps = suggestPartsSteps(prompts, name);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slice = () => {
      const until = performance.now() + SLICE_MS;
      for (;;) {
        const step = steps.next();
        if (step.done) return setAnswer({ of: prompts, parts: step.value });
        if (performance.now() >= until) break;
      }
      timer = setTimeout(slice, 0);
    };
    timer = setTimeout(slice, 0);
    return () => clearTimeout(timer);
  }, [prompts, name]);
  return answer?.of === prompts ? { done: true, parts: answer.parts } : { done: false, parts: null };
}
