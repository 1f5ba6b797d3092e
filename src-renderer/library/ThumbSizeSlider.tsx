import { useTranslation } from 'react-i18next';
import { THUMB_MAX, THUMB_MIN, useLibraryPrefs } from './library-prefs';

/** The thumbnail size, as Eagle and Lightroom have it: a slider, and Ctrl+= / Ctrl+- / Ctrl+0. */
export function ThumbSizeSlider() {
  const { t } = useTranslation();
  const size = useLibraryPrefs((s) => s.thumbSize);
  const setSize = useLibraryPrefs((s) => s.setThumbSize);
  return (
    <label className="inline-field lib-size" title={t('library.thumbSizeHint')}>
      <span>{t('library.thumbSize')}</span>
      <input
        type="range"
        min={THUMB_MIN}
        max={THUMB_MAX}
        step={4}
        value={size}
        onChange={(e) => setSize(Number(e.target.value))}
        data-testid="library-thumb-size"
      />
    </label>
  );
}
