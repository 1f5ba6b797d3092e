import { useTranslation } from 'react-i18next';
import { useSelection } from './library-selection';

/**
 * How many images the list has, of the library's, and how many are selected. While a first build
 * runs (`indexing`), what is indexed is not the total: the estimate is shown, or no total at all
 * before there is one.
 */
export function LibraryCount({
  shown,
  count,
  indexing,
}: {
  /** The list's count, from its first window: nothing is said before it is known either. */
  shown: number | undefined;
  /** The library's count, from the overview: nothing is said before it is known. */
  count: number | undefined;
  indexing?: { about?: number };
}) {
  const { t } = useTranslation();
  const selected = useSelection((s) => s.selected.size);
  const text =
    count === undefined || shown === undefined
      ? ''
      : !indexing
        ? t('library.count', { shown, count })
        : indexing.about !== undefined
          ? t('library.countIndexing', { shown, count: Math.max(indexing.about, count) })
          : t('library.countIndexingSoFar', { count: shown });
  const whole = text && selected > 0 ? `${text} · ${t('library.selected', { count: selected })}` : text;
  return (
    <span
      className="muted"
      role="status"
      data-testid="library-count"
      data-indexing={!!indexing}
      title={whole}
    >
      {whole}
    </span>
  );
}
