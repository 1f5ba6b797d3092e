import type { TFunction } from 'i18next';
import type { TeamMarks } from '../../src-shared/person';

/** Who marked an image how, as names in the reader's language: "Earlier" for marks made before names. */
export interface TeamNames {
  picked: string[];
  rejected: string[];
  alternative: string[];
  /** Others' picks and rejects: the cell's badges count these, beside the person's own mark. */
  otherPicks: number;
  otherRejects: number;
}

export function teamNames(team: TeamMarks | undefined, t: TFunction): TeamNames {
  const out: TeamNames = { picked: [], rejected: [], alternative: [], otherPicks: 0, otherRejects: 0 };
  for (const person of team?.by ?? []) {
    if (!person.mark) continue;
    const name = person.name || t('team.earlier');
    out[person.mark].push(person.me ? t('team.meName', { name }) : name);
    if (!person.me && person.mark === 'picked') out.otherPicks++;
    if (!person.me && person.mark === 'rejected') out.otherRejects++;
  }
  return out;
}

/** "Picked by Ana, Wei · Rejected by Bo": the lightbox's line and the cell's tooltip; '' where nobody marked. */
export function teamSummary(names: TeamNames, t: TFunction): string {
  const list = (people: string[]) => people.join(t('team.separator'));
  return [
    names.picked.length ? t('team.pickedBy', { names: list(names.picked) }) : '',
    names.rejected.length ? t('team.rejectedBy', { names: list(names.rejected) }) : '',
    names.alternative.length ? t('team.alternativeBy', { names: list(names.alternative) }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
}
