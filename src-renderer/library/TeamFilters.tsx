import { useTranslation } from 'react-i18next';
import type { LibraryFilter, LibraryOverview } from '../../src-shared/library-view';

/** Most people a "picked by at least" choice offers: a team's size, up to this. */
const MAX_PICKS_CHOICE = 10;

interface Props {
  filter: LibraryFilter;
  overview: LibraryOverview | undefined;
  onChange(patch: Partial<LibraryFilter>): void;
}

/** How many of the team's filters are set, for the folded bar's count. */
export const teamFiltersSet = (filter: LibraryFilter): number =>
  [filter.whose === 'anyone', filter.agreement, filter.minPicks].filter(Boolean).length;

/**
 * The team's filters: whose marks the review filter looks at, whether the team agrees, and picked
 * by at least N people. Shown only where the library holds more than one person's marks (or one of
 * them is set, so it can be cleared): a designer working alone never sees them.
 */
export function TeamFilters({ filter, overview, onChange }: Props) {
  const { t } = useTranslation();
  const people = overview?.people.length ?? 0;
  if (people < 2 && !teamFiltersSet(filter)) return null;
  const most = Math.max(2, Math.min(MAX_PICKS_CHOICE, people, filter.minPicks ?? 0));
  return (
    <>
      <label className="inline-field">
        <span>{t('team.whose')}</span>
        <select
          value={filter.whose ?? 'mine'}
          onChange={(e) => onChange({ whose: e.target.value === 'anyone' ? 'anyone' : undefined })}
          data-testid="library-whose"
        >
          <option value="mine">{t('team.mine')}</option>
          <option value="anyone">{t('team.anyone')}</option>
        </select>
      </label>
      <label className="inline-field">
        <span>{t('team.agreement')}</span>
        <select
          value={filter.agreement ?? ''}
          onChange={(e) =>
            onChange({ agreement: (e.target.value || undefined) as LibraryFilter['agreement'] })
          }
          data-testid="library-agreement"
        >
          <option value="">{t('team.agreementAny')}</option>
          <option value="agree">{t('team.agree')}</option>
          <option value="disagree">{t('team.disagree')}</option>
        </select>
      </label>
      <label className="inline-field">
        <span>{t('team.minPicks')}</span>
        <select
          value={filter.minPicks ?? 0}
          onChange={(e) => onChange({ minPicks: Number(e.target.value) || undefined })}
          data-testid="library-min-picks"
        >
          <option value={0}>{t('team.minPicksAny')}</option>
          {Array.from({ length: most }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {t('team.people', { count: n })}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
