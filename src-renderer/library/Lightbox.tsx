import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryImage } from '../../src-shared/library-view';
import { imagePaths } from '../../src-shared/image-paths';
import { imageUrl } from '../app/image-url';
import { useStudioQuery } from '../app/studio-queries';
import { Modal } from '../shell/Modal';
import { keyHandler, LIGHTBOX_SHORTCUTS } from '../shell/shortcuts';
import { markingKeys, type MarkChange } from '../shared/marking-keys';
import { CompareAcrossButton } from './CompareAcrossModels';
import { LightboxLineage } from './LightboxLineage';
import { StarRating } from './StarRating';
import { TeamLine } from './TeamBadges';
import { useLibraryPrefs } from './library-prefs';

interface Props {
  item: LibraryImage;
  /** Place of the image in the filtered list, and the list's length. */
  index: number;
  total: number;
  /** The image at `index` is still on its way: `item` is the one shown before, and is not marked. */
  pending: boolean;
  onIndex(index: number): void;
  onClose(): void;
  onMark(ids: string[], change: MarkChange): void;
  onUsePrompt(prompt: string): void;
  /** Use as reference, Regenerate, Vary: on this image. */
  reuse: ReuseHandlers;
  /** Opens an image of the lineage, which may be outside the filtered list. */
  onOpenImage(item: LibraryImage): void;
  /** The images before and after, loaded ahead so that the next one is drawn at once. */
  preload?: LibraryImage[];
  /** Below the image: the filmstrip of the list around this one. */
  children?: React.ReactNode;
  /** K: keep this image and reject the rest of its stack. */
  onKeepBest?(item: LibraryImage): void;
}

export interface ReuseHandlers {
  reference(id: string): void;
  regenerate(id: string): void;
  vary(id: string): void;
}

/** Full size with zoom and pan, the prompt and parameters beside it, and next/previous. */
export function Lightbox({
  item,
  index,
  total,
  pending,
  onIndex,
  onClose,
  onMark: markAny,
  onUsePrompt,
  reuse,
  onOpenImage,
  preload = [],
  children,
  onKeepBest,
}: Props) {
  const { t } = useTranslation();
  const autoAdvance = useLibraryPrefs((s) => s.autoAdvance);
  const toggle = useLibraryPrefs((s) => s.toggle);
  const onMark: Props['onMark'] = (ids, change) => {
    if (!pending) markAny(ids, change);
  };
  /** After a key that decides this image: on to the next one when auto-advance is on. */
  const moveOn = () => autoAdvance && index < total - 1 && onIndex(index + 1);
  /** A mark from the keys: on this image, then on. */
  const markAndMove: Props['onMark'] = (ids, change) => {
    if (pending) return;
    markAny(ids, change);
    moveOn();
  };
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
      next: () => (index < total - 1 ? onIndex(index + 1) : false),
      previous: () => (index > 0 ? onIndex(index - 1) : false),
      ...markingKeys((change) => markAndMove([item.id], change)),
      keepBest: () => {
        if (pending || !item.stack || !onKeepBest) return false;
        onKeepBest(item);
        moveOn();
      },
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
        {/* The neighbours are drawn too, hidden and decoded: moving on shows an element that is
            ready (the same element, by its key), instead of starting a load and a decode. */}
        {[item, ...preload.filter((p) => p.id !== item.id)].map((shown) =>
          shown.id === item.id ? (
            <img
              key={shown.id}
              src={imageUrl(imagePaths.libraryOriginal(shown.id))}
              alt={shown.prompt}
              draggable={false}
              style={{ transform: `translate(${pan.x}px, ${pan.y}px) scale(${zoom})` }}
              data-testid="lightbox-image"
              data-id={shown.id}
            />
          ) : (
            <img
              key={shown.id}
              src={imageUrl(imagePaths.libraryOriginal(shown.id))}
              alt=""
              aria-hidden="true"
              draggable={false}
              className="lightbox-ahead"
              // Decoded now, at full size, so that showing it costs a frame, not a decode.
              ref={(el) => void el?.decode().catch(() => undefined)}
            />
          ),
        )}
      </div>
      {children}
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
            {index + 1} / {total}
          </span>
          <button
            type="button"
            onClick={() => onIndex(index + 1)}
            disabled={index >= total - 1}
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
          <CompareAcrossButton id={item.id} />
        </div>
        <TeamLine team={item.team} />
        <label className="check" title={t('library.autoAdvanceHint')}>
          <input
            type="checkbox"
            checked={autoAdvance}
            onChange={() => toggle('autoAdvance')}
            data-testid="lightbox-auto-advance"
          />
          {t('library.autoAdvance')}
        </label>
        <h3>{t('library.prompt')}</h3>
        <p className="lightbox-prompt" data-testid="lightbox-prompt">
          {item.prompt}
        </p>
        <button type="button" className="primary" onClick={() => onUsePrompt(item.prompt)}>
          {t('library.usePrompt')}
        </button>
        <div className="actions">
          <button type="button" onClick={() => reuse.reference(item.id)} data-testid="lightbox-use-reference">
            {t('reuse.useAsReference')}
          </button>
          <button type="button" onClick={() => reuse.regenerate(item.id)} data-testid="lightbox-regenerate">
            {t('reuse.regenerate')}
          </button>
          <button type="button" title={t('reuse.varyHint')} onClick={() => reuse.vary(item.id)}>
            {t('reuse.vary')}
          </button>
        </div>
        <LightboxLineage id={item.id} onOpen={onOpenImage} />
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
