import { useTranslation } from 'react-i18next';

/**
 * Stars by mouse as well as by the 0–5 keys: five toggle buttons, each named by its count ("3 stars").
 * Choosing the current rating again clears it.
 */
export function StarRating({
  value,
  onChange,
  disabled = false,
}: {
  value: number;
  onChange(stars: number): void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <span className="star-rating" role="group" aria-label={t('library.starsLabel')} data-testid="star-rating">
      {[1, 2, 3, 4, 5].map((n) => (
        <button
          key={n}
          type="button"
          className="star-button"
          aria-label={t('library.stars', { count: n })}
          aria-pressed={value === n}
          disabled={disabled}
          onClick={() => onChange(value === n ? 0 : n)}
        >
          {n <= value ? '★' : '☆'}
        </button>
      ))}
    </span>
  );
}
