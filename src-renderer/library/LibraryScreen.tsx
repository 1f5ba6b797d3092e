import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryFilter, LibraryImage } from '../../src-shared/library-view';
import { StudioError } from '../../src-shared/studio-error';
import { useStudio } from '../app/studio-context';
import { ErrorNotice } from '../shell/ErrorNotice';
import { AddToBoardDialog } from './AddToBoardDialog';
import { CompareAcrossModelsHost } from './CompareAcrossModels';
import { CompareView } from './CompareView';
import { closeChoice, openChoice, useOpenChoice } from './library-choice';
import { LibraryBoards } from './LibraryBoards';
import { LibraryCount } from './LibraryCount';
import { LibraryFilters } from './LibraryFilters';
import { LibraryGrid } from './LibraryGrid';
import { LibraryLightbox } from './LibraryLightbox';
import { LibraryProblems } from './LibraryProblems';
import { LibraryToolbar } from './LibraryToolbar';
import { useLibraryPrefs } from './library-prefs';
import { savedPlace, useKeptPlace } from './library-place';
import { useLibraryScreenKeys } from './use-library-screen-keys';
import { ThumbSizeSlider } from './ThumbSizeSlider';
import { keepBest, stackFilter } from './library-stacks';
import { useShortcutsOverlay } from '../shell/ShortcutsHost';
import { Lightbox, type ReuseHandlers } from './Lightbox';
import { ReferenceTargetDialog } from '../shared/ReferenceTargetDialog';
import { SurveyHost } from './SurveyView';
import { useReuse } from '../shared/use-reuse';
import { WhatWorkedHost } from './what-worked/WhatWorkedView';
import {
  useAskAhead,
  useAskList,
  useLibraryLiveUpdates,
  useLibraryOverview,
  useMarks,
  useShownList,
} from './library-hooks';
import { focusCell, resetSelection, selectionTargets } from './library-selection';
import { imagesById } from './library-windows';
import './library.css';
import './library-page.css';

const INITIAL_FILTER: LibraryFilter = { review: 'any', minStars: 0, sort: 'newest' };

/**
 * The Library: filters, actions and a virtual gallery over windows of the filtered list, with the
 * lightbox and compare on top. State lives where it is used: the filters here, the list in the
 * query cache (library-hooks), selection and focus in their store (library-selection).
 */
export function LibraryScreen() {
  const { t } = useTranslation();
  const studio = useStudio();
  const client = useQueryClient();
  const compare = useOpenChoice('compare');
  // The filter survives a reload (and so does the place in the list, with the selection).
  const [filter, setFilter] = useState<LibraryFilter>(() => savedPlace()?.filter ?? INITIAL_FILTER);
  const boardsOpen = useLibraryPrefs((s) => s.boardsOpen);
  const toggle = useLibraryPrefs((s) => s.toggle);
  const { shown, total, error: listError, change: changeList } = useShownList(filter);
  const overview = useLibraryOverview(total !== undefined || !!listError);
  const [lightbox, setLightbox] = useState<number>();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<StudioError>();
  const scroller = useRef<HTMLDivElement>(null);
  const mark = useMarks(setError);
  useLibraryLiveUpdates(() => ({ filter: shown, lightbox, setLightbox }));
  useLibraryScreenKeys(mark, setMessage);
  useKeptPlace(filter);
  /** The images "Add to board" is open for; the library image a reference is being placed from. */
  const [boardMenu, setBoardMenu] = useState<string[]>();
  const [referenceFor, setReferenceFor] = useState<string>();
  /** An image opened from a lineage, which may be outside the filtered list. */
  const [single, setSingle] = useState<LibraryImage>();
  const feedback = { onMessage: setMessage, onError: setError };
  const reuseActions = useReuse(feedback);
  const reuse: ReuseHandlers = {
    reference: setReferenceFor,
    regenerate: (id) => void reuseActions.regenerate(id),
    vary: reuseActions.vary,
  };
  const boards = overview.data?.collections ?? [];
  const activeBoard = boards.find((b) => b.id === filter.collectionId);
  const openBoardMenu = () => setBoardMenu(selectionTargets({ client, filter: shown }));
  /** The list a stack was opened from, to go back to. */
  const [beforeStack, setBeforeStack] = useState<LibraryFilter>();
  const onKeepBest = (item: LibraryImage) =>
    void keepBest(studio, item, mark)
      .then((count) => setMessage(t('library.keptBest', { count })))
      .catch((err: unknown) => setError(StudioError.from(err)));
  const onStack = (action: 'keepBest' | 'open', item: LibraryImage) => {
    if (action === 'keepBest') return onKeepBest(item);
    if (!item.stack || filter.stackOf) return;
    setBeforeStack(filter);
    setFilter(stackFilter(item.stack.leader, item.stack.level));
  };

  // A new visit starts where the last one was (a reload); another list keeps the selection (ids)
  // but not the focus.
  const firstList = useRef(true);
  useEffect(() => {
    if (firstList.current) {
      firstList.current = false;
      return;
    }
    resetSelection(true);
  }, [shown]);

  /**
   * Changes the filters; one that changes nothing keeps the same list (and the scroll). The new
   * list is asked for in the same turn, before the screen draws the change.
   */
  const askList = useAskList();
  const current = useRef(filter);
  current.current = filter;
  const changeFilter = useCallback(
    (patch: Partial<LibraryFilter>) => {
      const f = current.current;
      if (Object.entries(patch).every(([k, v]) => f[k as keyof LibraryFilter] === v)) return;
      const next = { ...f, ...patch };
      current.current = next;
      void askList(next);
      // The focus goes back to the first image now, as the list is asked for, not once it is drawn:
      // the gallery redrawn for the move (and its place checked) in the key's own small task rather
      // than in the one that draws a search's answer, which was 74 ms at a million images after
      // culling. The reset when the list is drawn (above) then changes nothing.
      resetSelection(true);
      // A select's value set in a transition would show its old choice until the list is drawn.
      if ('search' in patch) changeList(next, setFilter);
      else setFilter(next);
    },
    [askList, changeList],
  );
  const askAhead = useAskAhead();
  const searchTyped = useCallback(
    (search: string | undefined) => askAhead({ ...current.current, search }),
    [askAhead],
  );

  const openCompare = (ids: string[]) =>
    void imagesById(studio, client, ids)
      .then((items) => openChoice({ kind: 'compare', items }))
      .catch((err: unknown) => setError(StudioError.from(err)));

  const indexing = overview.data?.indexing;
  const shownError = error ?? listError ?? overview.error ?? undefined;
  return (
    <section className="screen library" aria-labelledby="screen-title">
      <div className="lib-head">
        <h1 id="screen-title">{t('library.title')}</h1>
        <LibraryCount
          shown={total}
          count={overview.data?.images}
          indexing={indexing ? { about: indexing.imagesAbout } : undefined}
        />
        <LibraryToolbar
          filter={shown}
          total={total ?? 0}
          onMark={mark}
          onCompare={openCompare}
          onMessage={setMessage}
          onError={setError}
          onAddToBoard={setBoardMenu}
          reuse={reuse}
        />
        <button
          type="button"
          className="lib-help-button"
          aria-label={t('library.shortcutsButton')}
          title={t('library.shortcutsButton')}
          onClick={() => useShortcutsOverlay.setState({ open: true })}
          data-testid="library-shortcuts"
        >
          ?
        </button>
      </div>
      <LibraryFilters filter={filter} overview={overview.data} onChange={changeFilter} onTyped={searchTyped}>
        <ThumbSizeSlider />
      </LibraryFilters>
      {indexing && (
        <p className="notice lib-indexing" role="status" data-testid="library-indexing">
          <progress value={indexing.done} max={Math.max(1, indexing.total)} />
          {t('library.indexing', { done: indexing.done, count: indexing.total })}
          {filter.search && ` ${t('library.searchIndexing')}`}
        </p>
      )}
      {filter.stackOf && (
        <p className="notice lib-stack-open" role="status" data-testid="library-stack-open">
          {t(filter.stackLevel === 'similar' ? 'library.similarOpen' : 'library.stackOpen', {
            count: total ?? 0,
          })}{' '}
          <button
            type="button"
            onClick={() => {
              setFilter(beforeStack ?? INITIAL_FILTER);
              setBeforeStack(undefined);
            }}
            data-testid="library-stack-back"
          >
            {t('library.stackBack')}
          </button>
        </p>
      )}
      {message && (
        <p className="notice" role="status" data-testid="library-message">
          {message}
        </p>
      )}
      {shownError && <ErrorNotice error={StudioError.from(shownError).toView()} />}
      {overview.data && <LibraryProblems problems={overview.data.problems} />}
      {total === 0 && overview.data && (
        <p className="empty-state">
          {overview.data?.batches.length ? t('library.noMatch') : t('library.empty')}
        </p>
      )}
      <div className="lib-body">
        <LibraryBoards
          open={boardsOpen}
          onToggle={() => toggle('boardsOpen')}
          boards={boards}
          images={overview.data?.images ?? 0}
          active={filter.collectionId}
          onSelect={(collectionId) => changeFilter({ collectionId })}
          {...feedback}
        />
        <LibraryGrid
          filter={shown}
          total={total ?? 0}
          onMark={mark}
          onOpen={setLightbox}
          onError={setError}
          onAddToBoard={openBoardMenu}
          onStack={onStack}
          scroller={scroller}
        />
      </div>
      {lightbox !== undefined && total !== undefined && (
        <LibraryLightbox
          filter={shown}
          total={total}
          index={lightbox}
          onIndex={(i) => {
            setLightbox(i);
            focusCell(i);
          }}
          onClose={() => {
            setLightbox(undefined);
            scroller.current?.focus();
          }}
          onMark={mark}
          onUsePrompt={(prompt) => void reuseActions.sendPrompt(prompt)}
          reuse={reuse}
          onOpenImage={setSingle}
          onKeepBest={onKeepBest}
        />
      )}
      {single && (
        <Lightbox
          item={single}
          index={0}
          total={1}
          pending={false}
          onIndex={() => undefined}
          onClose={() => setSingle(undefined)}
          onMark={mark}
          onUsePrompt={(prompt) => void reuseActions.sendPrompt(prompt)}
          reuse={reuse}
          onOpenImage={setSingle}
        />
      )}
      {boardMenu && (
        <AddToBoardDialog
          ids={boardMenu}
          boards={boards}
          active={activeBoard}
          onClose={() => setBoardMenu(undefined)}
          {...feedback}
        />
      )}
      {referenceFor && (
        <ReferenceTargetDialog
          onChoose={(row) => {
            setReferenceFor(undefined);
            void reuseActions.addReference(referenceFor, row);
          }}
          onError={setError}
          onClose={() => setReferenceFor(undefined)}
        />
      )}
      {compare && <CompareView items={compare.items} onClose={closeChoice} />}
      <CompareAcrossModelsHost onMark={mark} />
      <SurveyHost onMark={mark} onMessage={setMessage} onError={setError} />
      <WhatWorkedHost
        filter={filter}
        teamMarks={(overview.data?.people.length ?? 0) > 1}
        onShow={setFilter}
      />
    </section>
  );
}
