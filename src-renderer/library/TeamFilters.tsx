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

/** Where the library holds more than one person's marks, or a team filter is set (so it can be cleared). */
const shown = (filter: LibraryFilter, overview: LibraryOverview | undefined) =>
  (overview?.people.length ?? 0) > 1 || teamFiltersSet(filter) > 0;

/**
 * Whose marks the review filter looks at, right after it ("Review: Picked · Anyone's"), its label
 * for assistive technology only: a designer working alone never sees it.
 */
export function WhoseFilter({ filter, overview, onChange }: Props) {
  const { t } = useTranslation();
  if (!shown(filter, overview)) return null;
  return (
    <label className="inline-field">
      <span className="sr-only">{t('team.whose')}</span>
      <select
        value={filter.whose ?? 'mine'}
        onChange={(e) => onChange({ whose: e.target.value === 'anyone' ? 'anyone' : undefined })}
        data-testid="library-whose"
      >
        <option value="mine">{t('team.mine')}</option>
        <option value="anyone">{t('team.anyone')}</option>
      </select>
    </label>
  );
}

/**
 * The team's own filters: whether it agrees, and picked by at least N people. Shown only where the
 * library holds more than one person's marks.
 */
export function TeamFilters({ filter, overview, onChange }: Props) {
  const { t } = useTranslation();
  if (!shown(filter, overview)) return null;
  const people = overview?.people.length ?? 0;
  const most = Math.max(2, Math.min(MAX_PICKS_CHOICE, people, filter.minPicks ?? 0));
  return (
    <>
      <label className="inline-field">
        <span className="sr-only">{t('team.agreement')}</span>
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
              {t('team.atLeast', { count: n })}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
