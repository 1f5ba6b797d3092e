import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryImage } from '../../src-shared/library-view';
import { imagePaths } from '../../src-shared/image-paths';
import { imageUrl } from '../app/image-url';
import { Modal } from '../shell/Modal';

function Full({
  item,
  className,
  style,
}: {
  item: LibraryImage;
  className?: string;
  style?: React.CSSProperties;
}) {
  return (
    <img
      src={imageUrl(imagePaths.libraryOriginal(item.id))}
      alt={item.prompt}
      className={className}
      style={style}
      draggable={false}
    />
  );
}

/** Two to four images side by side, or two under a divider slider. */
export function CompareView({ items, onClose }: { items: LibraryImage[]; onClose(): void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'side' | 'slider'>('side');
  const [split, setSplit] = useState(50);
  return (
    <Modal
      className="lightbox compare"
      label={t('library.compareTitle', { count: items.length })}
      onClose={onClose}
      testId="compare"
    >
      <div className="compare-bar actions">
        <strong>{t('library.compareTitle', { count: items.length })}</strong>
        <button
          type="button"
          className={mode === 'side' ? 'primary' : undefined}
          onClick={() => setMode('side')}
        >
          {t('library.sideBySide')}
        </button>
        {items.length === 2 && (
          <button
            type="button"
            className={mode === 'slider' ? 'primary' : undefined}
            onClick={() => setMode('slider')}
            data-testid="compare-slider-mode"
          >
            {t('library.slider')}
          </button>
        )}
        <button type="button" onClick={onClose} data-autofocus>
          {t('library.close')}
        </button>
      </div>
      {mode === 'side' || items.length !== 2 ? (
        <div className="compare-grid" style={{ gridTemplateColumns: `repeat(${items.length}, 1fr)` }}>
          {items.map((item) => (
            <figure key={item.id}>
              <Full item={item} />
              <figcaption className="muted">
                {item.customId} · {item.prompt}
              </figcaption>
            </figure>
          ))}
        </div>
      ) : (
        <div className="compare-slider">
          <div className="slider-stage">
            <Full item={items[0]!} />
            <Full item={items[1]!} className="slider-top" style={{ clipPath: `inset(0 0 0 ${split}%)` }} />
          </div>
          <input
            type="range"
            min={0}
            max={100}
            value={split}
            onChange={(e) => setSplit(Number(e.target.value))}
            aria-label={t('library.sliderLabel')}
            data-testid="compare-slider"
          />
        </div>
      )}
    </Modal>
  );
}
