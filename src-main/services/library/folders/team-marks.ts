import type { ReviewMark } from '../../../../src-shared/review-mark';
import type { TeamMarks } from '../../../../src-shared/person';
import { EARLIER } from './review-files';

/** One person's entry for one image: a pick, reject or alternative, stars, or an entry taken back. */
export interface TeamEntry {
  person: string;
  mark: ReviewMark;
  stars: number;
}

/** What the team's marks on one image add up to, as the catalog keeps it for the filters. */
export interface TeamCounts {
  picks: number;
  rejects: number;
  /** People with any mark. */
  marked: number;
  /** 1 where people marked it differently. */
  split: number;
  /** The entries that count, each with a mark or stars. */
  counted: TeamEntry[];
}

/**
 * The one rule for whose marks count on an image: every person's own, and the earlier marks
 * (review.json, from before people had names) only where no person has an entry for it since, so a
 * person who re-marks an image they marked before names existed is not counted twice.
 */
export function teamCounts(entries: readonly TeamEntry[]): TeamCounts {
  const named = entries.some((e) => e.person !== EARLIER);
  const counted = entries.filter((e) => (e.mark !== null || e.stars > 0) && (!named || e.person !== EARLIER));
  const marks = counted.map((e) => e.mark).filter((m) => m !== null);
  return {
    picks: marks.filter((m) => m === 'picked').length,
    rejects: marks.filter((m) => m === 'rejected').length,
    marked: marks.length,
    split: new Set(marks).size > 1 ? 1 : 0,
    counted,
  };
}

/**
 * The team's marks as the grid shows them, or undefined where nobody but this person (or nobody)
 * has marked the image: then the image's own mark says it all.
 */
export function teamView(
  entries: readonly TeamEntry[],
  me: string,
  names: (id: string) => string,
): TeamMarks | undefined {
  const counts = teamCounts(entries);
  if (!counts.counted.some((e) => e.person !== me)) return undefined;
  return {
    picks: counts.picks,
    rejects: counts.rejects,
    marked: counts.marked,
    by: counts.counted.map((e) => ({
      name: names(e.person),
      me: e.person === me,
      mark: e.mark,
      stars: e.stars,
    })),
  };
}
