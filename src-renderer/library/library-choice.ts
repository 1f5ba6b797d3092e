import { create } from 'zustand';
import type { LibraryImage } from '../../src-shared/library-view';
import type { MarkPatch } from './library-windows';

/** What the survey is open on: chosen images, or one image's prompt variants. */
export type SurveyRequest = { ids: string[] } | { promptOf: string };

/**
 * A choice between images, over the Library screen: the survey, compare across models, or compare.
 * One at a time, in one store, so any of them is opened and closed the same way from anywhere (the
 * gallery's keys, the toolbar, the lightbox).
 */
type OpenChoice =
  | { kind: 'survey'; request: SurveyRequest }
  | { kind: 'across'; id: string }
  | { kind: 'compare'; items: LibraryImage[] };

const useChoice = create<{ open?: OpenChoice }>(() => ({}));

export const openChoice = (open: OpenChoice): void => useChoice.setState({ open });
export const closeChoice = (): void => useChoice.setState({ open: undefined });

/** The choice of this kind, while it is the one open. */
export function useOpenChoice<K extends OpenChoice['kind']>(
  kind: K,
): Extract<OpenChoice, { kind: K }> | undefined {
  return useChoice((s) => (s.open?.kind === kind ? (s.open as Extract<OpenChoice, { kind: K }>) : undefined));
}

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

/**
 * A choice's marks: shown at once on the images it shows (`show` applies the update to its own list
 * or cache), then written as the gallery writes marks, undo included.
 */
export function showingMarks(
  show: (update: (list: LibraryImage[]) => LibraryImage[]) => void,
  onMark: ChoiceMark,
): ChoiceMark {
  return (ids, change, options) => {
    show((list) => list.map((item) => (ids.includes(item.id) ? { ...item, ...change } : item)));
    onMark(ids, change, options);
  };
}
