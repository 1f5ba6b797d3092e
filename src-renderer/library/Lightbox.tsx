import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryImage } from '../../src-shared/library-view';
import { imagePaths } from '../../src-shared/image-paths';
import { imageUrl } from '../app/image-url';
import { useStudioQuery } from '../app/studio-queries';
import { Modal } from '../shell/Modal';
import { keyHandler, LIGHTBOX_SHORTCUTS } from '../shell/shortcuts';
import { StarRating } from './StarRating';

interface Props {
  items: LibraryImage[];
  index: number;
  onIndex(index: number): void;
  onClose(): void;
  onMark(ids: string[], change: { mark?: 'picked' | 'rejected' | null; stars?: number }): void;
  onUsePrompt(prompt: string): void;
}

/** Full size with zoom and pan, the prompt and parameters beside it, and next/previous. */
export function Lightbox({ items, index, onIndex, onClose, onMark, onUsePrompt }: Props) {
  const { t } = useTranslation();
  const item = items[index]!;
  const detail = useStudioQuery('library.detail', { id: item.id });
  const [zoom, setZoom] = useState(1);
  const [pan, setPan] = useState({ x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number } | undefined>(undefined);

  useEffect(() => {
    setZoom(1);
    setPan({ x: 0, y: 0 });
  }, [index]);

  // Built from the list the `?` overlay shows; Escape, Tab and focus are the Modal's.
  const onKey = (e: React.KeyboardEvent) => {
    const handled = keyHandler(LIGHTBOX_SHORTCUTS, {
      next: () => (index < items.length - 1 ? onIndex(index + 1) : false),
      previous: () => (index > 0 ? onIndex(index - 1) : false),
      pick: () => onMark([item.id], { mark: 'picked' }),
      reject: () => onMark([item.id], { mark: 'rejected' }),
      unmark: () => onMark([item.id], { mark: null, stars: 0 }),
      stars: (k) => onMark([item.id], { stars: Number(k.key) }),
      zoomIn: () => setZoom((z) => Math.min(8, z * 1.25)),
      zoomOut: () => setZoom((z) => Math.max(1, z / 1.25)),
    })(e);
    if (handled) e.stopPropagation();
  };

  return (
    <Modal
      className="lightbox"
      label={item.customId}
      initialFocus="dialog"
      onClose={onClose}
      onKeyDown={onKey}
      testId="lightbox"
    >
      <div
        className="lightbox-stage"
        onWheel={(e) => setZoom((z) => Math.min(8, Math.max(1, z * (e.deltaY < 0 ? 1.15 : 1 / 1.15))))}
        onPointerDown={(e) => (drag.current = { x: e.clientX - pan.x, y: e.clientY - pan.y })}
        onPointerMove={(e) =>
          drag.current && zoom > 1 && setPan({ x: e.clientX - drag.current.x, y: e.clientY - drag.current.y })
        }
        onPointerUp={() => (drag.current = undefined)}
        onPointerLeave={() => (drag.current = undefined)}
      >
        <img
          key={item.id}
          src={imageUrl(imagePaths.libraryOriginal(item.id))}
          alt={item.prompt}
          draggable={false}
          style={{ transform: `translate(${pan.x}px, ${pan.y}px) scale(${zoom})` }}
          data-testid="lightbox-image"
        />
      </div>
      <aside className="lightbox-side">
        <div className="actions">
          <button
            type="button"
            onClick={() => onIndex(index - 1)}
            disabled={index === 0}
            aria-label={t('library.previous')}
          >
            ←
          </button>
          <span className="muted">
            {index + 1} / {items.length}
          </span>
          <button
            type="button"
            onClick={() => onIndex(index + 1)}
            disabled={index === items.length - 1}
            aria-label={t('library.next')}
          >
            →
          </button>
          <button
            type="button"
            onClick={() => setZoom((z) => Math.min(8, z * 1.25))}
            aria-label={t('library.zoomIn')}
          >
            +
          </button>
          <button
            type="button"
            onClick={() => setZoom((z) => Math.max(1, z / 1.25))}
            aria-label={t('library.zoomOut')}
          >
            −
          </button>
          <button type="button" onClick={() => (setZoom(1), setPan({ x: 0, y: 0 }))}>
            {t('library.zoomReset')}
          </button>
          <button type="button" onClick={onClose}>
            {t('library.close')}
          </button>
        </div>
        <div className="actions">
          <button
            type="button"
            className={item.mark === 'picked' ? 'primary' : undefined}
            onClick={() => onMark([item.id], { mark: 'picked' })}
          >
            {t('library.pick')}
          </button>
          <button
            type="button"
            className={item.mark === 'rejected' ? 'danger' : undefined}
            onClick={() => onMark([item.id], { mark: 'rejected' })}
          >
            {t('library.reject')}
          </button>
          <StarRating value={item.stars} onChange={(stars) => onMark([item.id], { stars })} />
        </div>
        <h3>{t('library.prompt')}</h3>
        <p className="lightbox-prompt" data-testid="lightbox-prompt">
          {item.prompt}
        </p>
        <button type="button" className="primary" onClick={() => onUsePrompt(item.prompt)}>
          {t('library.usePrompt')}
        </button>
        <h3>{t('library.parameters')}</h3>
        <dl className="parameters">
          {Object.entries(detail.data?.parameters ?? {}).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd className="mono">{String(v)}</dd>
            </div>
          ))}
        </dl>
      </aside>
    </Modal>
  );
}
