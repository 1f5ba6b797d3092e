import type { MarkPatch } from './library-windows';

/** What the images not chosen become: rejected (a survey, a stack), or alternatives (across models). */
type OthersMark = 'rejected' | 'alternative';

/** Marks as the gallery writes them; `join` makes a write part of the undo step before it. */
export type ChoiceMark = (ids: string[], change: MarkPatch, options?: { join?: boolean }) => void;

/**
 * "This one, not the others": the chosen image picked and the rest of `among` marked `others`, as
 * one undo step, so one Ctrl+Z puts every image back as it was. The rest are written first and the
 * pick joins them, so a pick with no rest is a step of its own rather than part of the one before.
 * Answers how many the rest were.
 */
export function chooseOne(mark: ChoiceMark, chosen: string, among: string[], others: OthersMark): number {
  const rest = among.filter((id) => id !== chosen);
  if (rest.length) mark(rest, { mark: others });
  mark([chosen], { mark: 'picked' }, { join: rest.length > 0 });
  return rest.length;
}
