import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryFilter, LibraryOverview } from '../../src-shared/library-view';
import { BatchSelect } from './BatchSelect';
import { useLibraryPrefs } from './library-prefs';
import { TeamFilters, teamFiltersSet, WhoseFilter } from './TeamFilters';

/**
 * Typing pauses this long before the search is asked: one query per burst of keys, not per letter.
 * A search of a million images answers in 25–45 ms over the API, so the pause, not the query, is
 * most of what a person waits for: 80 ms still joins keys typed in one go (60–70 ms apart).
 */
const SEARCH_DEBOUNCE_MS = 80;

interface FiltersProps {
  filter: LibraryFilter;
  overview: LibraryOverview | undefined;
  onChange(patch: Partial<LibraryFilter>): void;
  /** Each key typed in the search, at once: its answer is asked for during the typing pause. */
  onTyped?(search: string | undefined): void;
  /** At the bar's end: the thumbnail size. */
  children?: React.ReactNode;
}

/**
 * One compact bar: the search, then batch, model, review state, stars and sort, which fold away
 * behind one button (remembered) and say how many are set while folded.
 */
export function LibraryFilters({ filter, overview, onChange, onTyped, children }: FiltersProps) {
  const { t } = useTranslation();
  const open = useLibraryPrefs((s) => s.filtersOpen);
  const toggle = useLibraryPrefs((s) => s.toggle);
  const set =
    [
      filter.batchId,
      filter.model,
      filter.review !== 'any',
      (filter.minStars ?? 0) > 0,
      filter.sort !== 'newest',
      filter.stacks === 'one' || filter.stackLevel === 'similar',
    ].filter(Boolean).length + teamFiltersSet(filter);
  const [searchText, setSearchText] = useState(filter.search ?? '');
  const change = useRef(onChange);
  change.current = onChange;
  // Pinyin being composed ("qinghua" on the way to 青花) is not a search; the chosen characters are,
  // at once: the input method's commit is the end of typing.
  const composing = useRef(false);

  useEffect(() => {
    if (composing.current) return;
    const timer = setTimeout(() => change.current({ search: searchText || undefined }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText]);

  return (
    <div
      className="filters lib-filters"
      role="search"
      aria-label={t('library.search')}
      data-testid="library-filters"
    >
      <label className="inline-field lib-search">
        <span className="sr-only">{t('library.search')}</span>
        <input
          type="search"
          value={searchText}
          placeholder={t('library.searchPlaceholder')}
          onChange={(e) => {
            setSearchText(e.target.value);
            if (!composing.current) onTyped?.(e.target.value || undefined);
          }}
          onCompositionStart={() => (composing.current = true)}
          onCompositionEnd={(e) => {
            composing.current = false;
            setSearchText(e.currentTarget.value);
            change.current({ search: e.currentTarget.value || undefined });
          }}
          data-testid="library-search"
          className="grow"
        />
      </label>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => toggle('filtersOpen')}
        data-testid="library-filters-toggle"
      >
        {open
          ? t('library.filtersHide')
          : set
            ? t('library.filtersShow', { count: set })
            : t('library.filters')}
      </button>
      {open && <FilterSelects filter={filter} overview={overview} onChange={onChange} />}
      <span className="grow" />
      {children}
    </div>
  );
}

function FilterSelects({ filter, overview, onChange }: FiltersProps) {
  const { t } = useTranslation();
  // Stable, so the batch picker is not drawn again with every key in the gallery.
  const onBatch = useCallback((batchId: string | undefined) => onChange({ batchId }), [onChange]);
  const batchLabel = useId();
  return (
    <>
      {/* Not a label: the picker holds a search box and a list of its own. */}
      <div className="inline-field">
        <span id={batchLabel}>{t('library.batch')}</span>
        <BatchSelect
          batchId={filter.batchId}
          batches={overview?.batches}
          labelId={batchLabel}
          onChange={onBatch}
        />
      </div>
      <label className="inline-field">
        <span>{t('library.model')}</span>
        <select value={filter.model ?? ''} onChange={(e) => onChange({ model: e.target.value || undefined })}>
          <option value="">{t('library.all')}</option>
          {overview?.models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>{t('library.review')}</span>
        <select
          value={filter.review}
          onChange={(e) => onChange({ review: e.target.value as LibraryFilter['review'] })}
          data-testid="library-review"
        >
          <option value="any">{t('library.reviewAny')}</option>
          <option value="picked">{t('library.picked')}</option>
          <option value="alternative">{t('run.alternative')}</option>
          <option value="rejected">{t('library.rejected')}</option>
          <option value="unrated">{t('library.unrated')}</option>
        </select>
      </label>
      <WhoseFilter filter={filter} overview={overview} onChange={onChange} />
      <label className="inline-field">
        <span>{t('library.minStars')}</span>
        <select value={filter.minStars} onChange={(e) => onChange({ minStars: Number(e.target.value) })}>
          {[0, 1, 2, 3, 4, 5].map((n) => (
            <option key={n} value={n}>
              {t('library.stars', { count: n })}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>{t('library.sort')}</span>
        <select
          value={filter.sort}
          onChange={(e) => onChange({ sort: e.target.value as LibraryFilter['sort'] })}
        >
          <option value="newest">{t('library.newest')}</option>
          <option value="oldest">{t('library.oldest')}</option>
          <option value="stars">{t('library.byStars')}</option>
          <option value="prompt">{t('library.byPrompt')}</option>
        </select>
      </label>
      <label className="inline-field">
        <span>{t('library.stacks')}</span>
        <select
          value={`${filter.stacks ?? 'all'}-${filter.stackLevel ?? 'near'}`}
          onChange={(e) => {
            const [stacks, level] = e.target.value.split('-');
            onChange({
              stacks: stacks === 'one' ? 'one' : undefined,
              stackLevel: level === 'similar' ? 'similar' : undefined,
            });
          }}
          data-testid="library-stacks"
        >
          <option value="all-near">{t('library.stacksAll')}</option>
          <option value="one-near">{t('library.stacksOne')}</option>
          <option value="all-similar">{t('library.stacksAllSimilar')}</option>
          <option value="one-similar">{t('library.stacksOneSimilar')}</option>
        </select>
      </label>
      <TeamFilters filter={filter} overview={overview} onChange={onChange} />
    </>
  );
}
