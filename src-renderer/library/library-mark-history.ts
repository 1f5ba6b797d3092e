import { create } from 'zustand';
import type { ReviewMark } from '../../src-shared/library-view';
import type { MarkPatch } from './library-windows';

/** One image's marks as they were before a step. */
export type MarksBefore = { id: string; mark: ReviewMark; stars: number }[];

/** One write of a step: which images, and what it set. */
export interface MarkWrite {
  ids: string[];
  after: MarkPatch;
}

/**
 * One thing the user did: the writes it made, in order, and what the images had before. Usually
 * one write; "keep best" is two (the rest rejected, this one picked) and one step all the same.
 */
export interface MarkStep {
  writes: MarkWrite[];
  before: MarksBefore;
}

/** Steps kept for undo; a culling session of thousands of keys needs no more. */
const MAX_STEPS = 500;

/**
 * Undo and redo of marks, in the grid and the loupe alike (Ctrl+Z, Ctrl+Shift+Z). A step is
 * recorded once its write reached disk, with the marks main had just before it; undoing writes
 * those back, so every step goes through review.json like any mark.
 */
export const useMarkHistory = create<{ undo: MarkStep[]; redo: MarkStep[] }>(() => ({ undo: [], redo: [] }));

/**
 * Records a step, or with `join` adds it to the last one: a key that writes twice (keep best) is
 * undone by one Ctrl+Z. An image's first "before" is what the step puts back.
 */
export function recordMarkStep(step: MarkStep, join = false): void {
  useMarkHistory.setState((s) => {
    const last = s.undo.at(-1);
    if (join && last) {
      const known = new Set(last.before.map((b) => b.id));
      const merged: MarkStep = {
        writes: [...last.writes, ...step.writes],
        before: [...last.before, ...step.before.filter((b) => !known.has(b.id))],
      };
      return { undo: [...s.undo.slice(0, -1), merged], redo: [] };
    }
    return { undo: [...s.undo.slice(-(MAX_STEPS - 1)), step], redo: [] };
  });
}

/** How many images a step touched. */
export const stepSize = (step: MarkStep): number => step.before.length;

/** The writes that take a step back: the images grouped by the marks they had. */
export function undoWrites(step: MarkStep): { ids: string[]; change: MarkPatch }[] {
  const groups = new Map<string, { ids: string[]; change: MarkPatch }>();
  for (const b of step.before) {
    const key = `${b.mark ?? ''}|${b.stars}`;
    const group = groups.get(key) ?? { ids: [], change: { mark: b.mark, stars: b.stars } };
    group.ids.push(b.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Takes the last step off the undo list (onto redo); undefined when there is none. */
export function takeUndo(): MarkStep | undefined {
  const { undo, redo } = useMarkHistory.getState();
  const step = undo.at(-1);
  if (step) useMarkHistory.setState({ undo: undo.slice(0, -1), redo: [...redo, step] });
  return step;
}

export function takeRedo(): MarkStep | undefined {
  const { undo, redo } = useMarkHistory.getState();
  const step = redo.at(-1);
  if (step) useMarkHistory.setState({ redo: redo.slice(0, -1), undo: [...undo, step] });
  return step;
}
