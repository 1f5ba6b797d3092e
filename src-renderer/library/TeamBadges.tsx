import { useTranslation } from 'react-i18next';
import type { TeamMarks } from '../../src-shared/person';
import { teamNames, teamSummary } from './team-names';

/**
 * Others' picks and rejects on a cell, as two small counts beside the person's own mark: green for
 * picks, red for rejects. Who they are is in the title (and, for assistive technology, in words).
 */
export function TeamBadges({ team }: { team: TeamMarks | undefined }) {
  const { t } = useTranslation();
  if (!team) return null;
  const names = teamNames(team, t);
  if (!names.otherPicks && !names.otherRejects) return null;
  const summary = teamSummary(names, t);
  return (
    <span
      className="lib-team-badges"
      title={summary}
      data-testid="library-team-badges"
      data-picks={names.otherPicks}
      data-rejects={names.otherRejects}
    >
      <span className="sr-only">{summary}</span>
      {names.otherPicks > 0 && (
        <span className="badge lib-team-picks" aria-hidden="true">
          ✓{names.otherPicks}
        </span>
      )}
      {names.otherRejects > 0 && (
        <span className="badge lib-team-rejects" aria-hidden="true">
          ✕{names.otherRejects}
        </span>
      )}
    </span>
  );
}

/** The loupe's line: "Picked by Ana, Wei · Rejected by Bo"; nothing where nobody else marked it. */
export function TeamLine({ team }: { team: TeamMarks | undefined }) {
  const { t } = useTranslation();
  const summary = team ? teamSummary(teamNames(team, t), t) : '';
  if (!summary) return null;
  return (
    <p className="lightbox-team" data-testid="lightbox-team">
      <span className="sr-only">{t('team.marksLabel')}: </span>
      {summary}
    </p>
  );
}
