import { closeChoice, openChoice } from './library-choice';

/** The most images a survey shows: beyond two dozen each is too small to choose between. */
export const SURVEY_MAX = 24;

/**
 * Opens the survey (N, or the toolbar's Survey) on the gallery's targets: several images are
 * surveyed as they are; one image brings every image of its prompt, as Lightroom's Survey view
 * shows the candidates for one shot.
 */
export function openSurvey(targets: string[]): void {
  if (!targets.length) return;
  openChoice({
    kind: 'survey',
    request: targets.length > 1 ? { ids: targets } : { promptOf: targets[0]! },
  });
}

export const closeSurvey = closeChoice;

/**
 * How many columns fit `count` images best on a stage of this shape: the layout whose cells are
 * the largest squares, as a contact sheet is laid out.
 */
export function surveyColumns(count: number, width: number, height: number): number {
  let best = 1;
  let bestSide = 0;
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const side = Math.min(width / columns, height / rows);
    if (side > bestSide) [best, bestSide] = [columns, side];
  }
  return best;
}
