import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Stars by mouse as well as by the 0–5 keys: five toggle buttons, each named by its count ("3 stars").
 * Choosing the current rating again clears it. In the gallery (`inGallery`) the group is named after
 * its image, each button says what it does ("Rate 3 stars"), and a click leaves the focus where it
 * was, so the gallery's keys go on working.
 */
export function StarRating({
  value,
  onChange,
  disabled = false,
  inGallery,
  className = 'star-rating',
  style,
  testId = 'star-rating',
  dataId,
}: {
  value: number;
  onChange(stars: number): void;
  disabled?: boolean;
  /** The prompt of the gallery image these stars rate, when they sit over its cell. */
  inGallery?: { prompt: string };
  className?: string;
  style?: CSSProperties;
  testId?: string;
  dataId?: string;
}) {
  const { t } = useTranslation();
  return (
    <span
      className={className}
      role="group"
      aria-label={inGallery ? t('library.cellStars', inGallery) : t('library.starsLabel')}
      data-testid={testId}
      data-id={dataId}
      style={style}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <button
          key={n}
          type="button"
          className="star-button"
          aria-label={inGallery ? t('library.rate', { count: n }) : t('library.stars', { count: n })}
          aria-pressed={value === n}
          disabled={disabled}
          onMouseDown={inGallery ? (e) => e.preventDefault() : undefined}
          onClick={() => onChange(value === n ? 0 : n)}
        >
          {n <= value ? '★' : '☆'}
        </button>
      ))}
    </span>
  );
}
