import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryImage } from '../../src-shared/library-view';
import { imagePaths } from '../../src-shared/image-paths';
import { imageUrl } from '../app/image-url';
import { useStudioQuery } from '../app/studio-queries';
import { keyHandler, LIGHTBOX_SHORTCUTS } from '../shell/shortcuts';
import { markingKeys } from '../shared/marking-keys';
import { ChoiceTake, ChoiceView, MarkBadge } from './ChoiceView';
import { chooseOne, closeChoice, openChoice, showingMarks, useOpenChoice } from './library-choice';
import type { MarkFn } from './library-hooks';
import { StarRating } from './StarRating';
import './compare-across.css';

/** The same row of the same run on every model; one image alone is not a comparison. */
function useAcross(id: string | undefined, staleTime = 10_000) {
  return useStudioQuery('library.acrossModels', { id: id ?? '' }, { staleTime, enabled: !!id });
}

/** Whether this image's run has other models' takes on its row: the comparison is offered only then. */
const useHasTakesAcross = (id: string | undefined) => (useAcross(id).data?.length ?? 0) >= 2;

/**
 * "Compare across models" for the Library's menus: offered only for an image whose run has other
 * models' takes on the same row. In a menu, not the toolbar: a button that came and went as the
 * focus moved made the toolbar wrap at 1280 px, moving the grid down between the two clicks of a
 * double click (the second landed on a star button).
 */
export function useCompareAcrossItem(id: string | undefined, label: string) {
  if (!useHasTakesAcross(id) || !id) return [];
  return [
    {
      id: 'across',
      label,
      testId: 'library-compare-across',
      onSelect: () => openChoice({ kind: 'across', id }),
    },
  ];
}

/** Shown only for an image whose run has other models' takes on the same row. */
export function CompareAcrossButton({ id }: { id: string }) {
  const { t } = useTranslation();
  if (!useHasTakesAcross(id)) return null;
  return (
    <button
      type="button"
      title={t('run.compareAcrossHint')}
      onClick={() => openChoice({ kind: 'across', id })}
      data-testid="compare-across"
    >
      {t('run.compareAcross')}
    </button>
  );
}

/** Where the view is drawn when open: once, on the Library screen. */
export function CompareAcrossModelsHost({ onMark }: { onMark: MarkFn }) {
  const openFor = useOpenChoice('across')?.id;
  if (!openFor) return null;
  return <CompareAcrossModels id={openFor} onMark={onMark} onClose={closeChoice} />;
}

/**
 * One row of a run on each of its models, side by side and labelled by model. The culling keys
 * work on the focused one (arrows move); picking one marks the others as alternatives, as one
 * undo step (library-choice).
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

  // Shown at once, as the gallery does, in every cached comparison holding these images. The
  // comparison asked again on opening may still be on its way: it is called off first, or its answer,
  // read before the mark, would take the mark off the screen (seen on a busy machine).
  const acrossKey = { queryKey: ['library.acrossModels'] };
  const mark = showingMarks(
    (update) =>
      void client
        .cancelQueries(acrossKey)
        .then(() => client.setQueriesData<LibraryImage[]>(acrossKey, (list) => list && update(list))),
    onMark,
  );
  const pick = (item: LibraryImage) => {
    chooseOne(
      mark,
      item.id,
      items.map((i) => i.id),
      'alternative',
    );
  };

  const onKey = (e: React.KeyboardEvent) => {
    const handled = keyHandler(LIGHTBOX_SHORTCUTS, {
      next: () => (at < items.length - 1 ? setFocus(at + 1) : false),
      previous: () => (at > 0 ? setFocus(at - 1) : false),
      ...markingKeys((change) => (focused ? mark([focused.id], change) : false)),
      // Picking here chooses one model's image: the others become its alternatives.
      pick: () => (focused ? pick(focused) : false),
      // Across models there is no stack: a pick here already makes the others alternatives.
      keepBest: () => false,
      zoomIn: () => false,
      zoomOut: () => false,
    })(e);
    if (handled) e.stopPropagation();
  };

  const title = t('run.compareTitle', { row: focused?.customId ?? '', count: items.length });
  return (
    <ChoiceView
      className="compare-across"
      title={title}
      notes={<span className="muted">{t('run.keysHelp')}</span>}
      notice={items.length < 2 && across.data ? t('run.onlyOne') : undefined}
      grid={{
        className: 'compare-grid',
        style: { gridTemplateColumns: `repeat(${Math.max(1, items.length)}, 1fr)` },
      }}
      onClose={onClose}
      onKeyDown={onKey}
      testId="compare-across-view"
    >
      {items.map((item, i) => (
        <ChoiceTake
          key={item.id}
          item={item}
          className="across-take"
          focused={i === at}
          src={imageUrl(imagePaths.libraryOriginal(item.id))}
          onFocus={() => setFocus(i)}
          testId="across-take"
        >
          <strong className="across-model">{item.model}</strong>
          <MarkBadge mark={item.mark} testId="across-mark" />
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
        </ChoiceTake>
      ))}
    </ChoiceView>
  );
}
