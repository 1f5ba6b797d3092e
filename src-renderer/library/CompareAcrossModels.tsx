import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import type { LibraryImage } from '../../src-shared/library-view';
import { imagePaths } from '../../src-shared/image-paths';
import { imageUrl } from '../app/image-url';
import { useStudioQuery } from '../app/studio-queries';
import { Modal } from '../shell/Modal';
import { keyHandler, LIGHTBOX_SHORTCUTS } from '../shell/shortcuts';
import type { MarkFn } from './library-hooks';
import type { MarkPatch } from './library-windows';
import { StarRating } from './StarRating';
import './compare-across.css';

/** Which image "Compare across models" is open for: opened from the lightbox or the toolbar. */
const useAcrossModels = create<{ openFor?: string }>(() => ({}));

/** The same row of the same run on every model; one image alone is not a comparison. */
function useAcross(id: string, staleTime = 10_000) {
  return useStudioQuery('library.acrossModels', { id }, { staleTime });
}

/** Shown only for an image whose run has other models' takes on the same row. */
export function CompareAcrossButton({ id }: { id: string }) {
  const { t } = useTranslation();
  const across = useAcross(id);
  if ((across.data?.length ?? 0) < 2) return null;
  return (
    <button
      type="button"
      title={t('run.compareAcrossHint')}
      onClick={() => useAcrossModels.setState({ openFor: id })}
      data-testid="compare-across"
    >
      {t('run.compareAcross')}
    </button>
  );
}

/** Where the view is drawn when open: once, on the Library screen. */
export function CompareAcrossModelsHost({ onMark }: { onMark: MarkFn }) {
  const openFor = useAcrossModels((s) => s.openFor);
  if (!openFor) return null;
  return (
    <CompareAcrossModels
      id={openFor}
      onMark={onMark}
      onClose={() => useAcrossModels.setState({ openFor: undefined })}
    />
  );
}

/**
 * One row of a run on each of its models, side by side and labelled by model. The culling keys
 * work on the focused one (arrows move); picking one marks the others as alternatives, in two
 * writes: one for the pick, one for the rest.
 */
function CompareAcrossModels({ id, onMark, onClose }: { id: string; onMark: MarkFn; onClose(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  // Asked again on opening: a mark made in the gallery since shows here.
  const across = useAcross(id, 0);
  const items: LibraryImage[] = across.data ?? [];
  const start = Math.max(
    0,
    items.findIndex((i) => i.id === id),
  );
  const [focus, setFocus] = useState<number>();
  const at = Math.min(focus ?? start, Math.max(0, items.length - 1));
  const focused = items[at];

  const mark = (ids: string[], change: MarkPatch, join = false) => {
    if (!ids.length) return;
    // Shown at once, as the gallery does, in every cached comparison holding these images.
    client.setQueriesData<LibraryImage[]>({ queryKey: ['library.acrossModels'] }, (list) =>
      list?.map((item) => (ids.includes(item.id) ? { ...item, ...change } : item)),
    );
    onMark(ids, change, { join });
  };
  // One decision, one undo step.
  const pick = (item: LibraryImage) => {
    mark([item.id], { mark: 'picked' });
    mark(
      items.filter((i) => i.id !== item.id).map((i) => i.id),
      { mark: 'alternative' },
      true,
    );
  };

  const onKey = (e: React.KeyboardEvent) => {
    const handled = keyHandler(LIGHTBOX_SHORTCUTS, {
      next: () => (at < items.length - 1 ? setFocus(at + 1) : false),
      previous: () => (at > 0 ? setFocus(at - 1) : false),
      pick: () => (focused ? pick(focused) : false),
      reject: () => (focused ? mark([focused.id], { mark: 'rejected' }) : false),
      unmark: () => (focused ? mark([focused.id], { mark: null, stars: 0 }) : false),
      stars: (k) => (focused ? mark([focused.id], { stars: Number(k.key) }) : false),
      // Across models there is no stack: a pick here already makes the others alternatives.
      keepBest: () => false,
      zoomIn: () => false,
      zoomOut: () => false,
    })(e);
    if (handled) e.stopPropagation();
  };

  const title = t('run.compareTitle', { row: focused?.customId ?? '', count: items.length });
  return (
    <Modal
      className="lightbox compare compare-across"
      label={title}
      initialFocus="dialog"
      onClose={onClose}
      onKeyDown={onKey}
      testId="compare-across-view"
    >
      <div className="compare-bar actions">
        <strong>{title}</strong>
        <span className="muted">{t('run.keysHelp')}</span>
        <button type="button" onClick={onClose}>
          {t('library.close')}
        </button>
      </div>
      {items.length < 2 && across.data && <p className="notice">{t('run.onlyOne')}</p>}
      <div
        className="compare-grid"
        style={{ gridTemplateColumns: `repeat(${Math.max(1, items.length)}, 1fr)` }}
      >
        {items.map((item, i) => (
          <figure
            key={item.id}
            className={`across-take${i === at ? ' focused' : ''}${item.mark ? ` mark-${item.mark}` : ''}`}
            onClick={() => setFocus(i)}
            data-testid="across-take"
            data-model={item.model}
            data-mark={item.mark ?? ''}
            aria-current={i === at}
          >
            <img src={imageUrl(imagePaths.libraryOriginal(item.id))} alt={item.prompt} draggable={false} />
            <figcaption>
              <strong className="across-model">{item.model}</strong>
              {item.mark && (
                <span className="badge" data-testid="across-mark">
                  {item.mark === 'alternative' ? t('run.alternative') : t(`library.${item.mark}`)}
                </span>
              )}
              <span className="actions">
                <button
                  type="button"
                  className={item.mark === 'picked' ? 'primary' : undefined}
                  onClick={() => pick(item)}
                >
                  {t('run.pick')}
                </button>
                <StarRating value={item.stars} onChange={(stars) => mark([item.id], { stars })} />
              </span>
            </figcaption>
          </figure>
        ))}
      </div>
    </Modal>
  );
}
