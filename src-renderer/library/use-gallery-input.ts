import { openSurvey } from './library-survey';
import { useCallback, useRef } from 'react';
import type { StudioError } from '../../src-shared/studio-error';
import { GALLERY_SHORTCUTS, keyHandler } from '../shell/shortcuts';
import { markingKeys } from '../shared/marking-keys';
import { LIBRARY_IDS_MIME } from './board-drag';
import type { MarkPatch } from './library-windows';
import {
  clearSelection,
  extendTo,
  focusCell,
  selectAll,
  selectionTargets,
  selectOnly,
  toggleOne,
  useSelection,
  type SelectionSource,
} from './library-selection';

interface GalleryInput {
  source: SelectionSource;
  columns: number;
  onMark(ids: string[], change: MarkPatch): void;
  onOpen(index: number): void;
  onError(error: StudioError): void;
  /** B: the "Add to board" menu, for the selection. */
  onAddToBoard(): void;
  /** K and S on the focused image: keep it and reject the rest of its stack; open its stack. */
  onStack(action: 'keepBest' | 'open', index: number): void;
}

/**
 * Keyboard and mouse in the gallery: arrows, Home/End, Shift ranges, Ctrl/Cmd+A, marks and stars,
 * Enter for the lightbox; clicks with Shift and Ctrl/Cmd. Ranges that reach images not loaded yet
 * are completed by `library.ids` (see library-selection).
 */
export function useGalleryInput(input: GalleryInput) {
  const { source, columns, onMark, onOpen, onError, onAddToBoard, onStack } = input;

  function moveFocus(to: number, extend: boolean) {
    const next = Math.max(0, Math.min(source.total - 1, to));
    if (extend) extendTo(source, next, onError);
    else selectOnly(source, next);
  }

  /** Where an arrow, Home or End takes the focus. */
  const destination = (key: string) => {
    const focus = useSelection.getState().focus;
    return (
      {
        ArrowRight: focus + 1,
        ArrowLeft: focus - 1,
        ArrowDown: focus + columns,
        ArrowUp: focus - columns,
        Home: 0,
        End: source.total - 1,
      }[key] ?? focus
    );
  };

  const targets = () => selectionTargets(source);

  // Built from the list the `?` overlay shows.
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!source.total) return;
    keyHandler(GALLERY_SHORTCUTS, {
      move: (k) => moveFocus(destination(k.key), false),
      extend: (k) => moveFocus(destination(k.key), true),
      selectAll: () => selectAll(source, onError),
      clearSelection,
      openLightbox: () => onOpen(useSelection.getState().focus),
      ...markingKeys((change) => onMark(targets(), change)),
      addToBoard: () => onAddToBoard(),
      keepBest: () => onStack('keepBest', useSelection.getState().focus),
      openStack: () => onStack('open', useSelection.getState().focus),
      survey: () => openSurvey(targets()),
    })(e);
  };

  const clickCell = (index: number, e: React.MouseEvent) => {
    if (e.shiftKey) extendTo(source, index, onError);
    else if (e.ctrlKey || e.metaKey) toggleOne(source, index);
    else selectOnly(source, index);
  };

  // Cells are memoized: they get handlers that never change and call the newest ones.
  const latest = useRef({ clickCell, onOpen, onMark, source });
  latest.current = { clickCell, onOpen, onMark, source };
  const onCellClick = useCallback(
    (index: number, e: React.MouseEvent) => latest.current.clickCell(index, e),
    [],
  );
  const onCellOpen = useCallback((index: number) => {
    focusCell(index);
    latest.current.onOpen(index);
  }, []);

  /**
   * Dragging a cell onto a board carries the selection when the cell is in it, else this cell
   * alone (which becomes the selection, as a file manager does).
   */
  const onCellDragStart = useCallback((index: number, id: string, e: React.DragEvent) => {
    const { selected } = useSelection.getState();
    if (!selected.has(id)) selectOnly(latest.current.source, index);
    const ids = selected.has(id) ? [...selected] : [id];
    e.dataTransfer.setData(LIBRARY_IDS_MIME, JSON.stringify(ids));
    e.dataTransfer.effectAllowed = 'copy';
  }, []);

  /** A cell's own star buttons: that image alone, by the path the 0–5 keys take; the selection stays. */
  const onCellStars = useCallback((id: string, stars: number) => latest.current.onMark([id], { stars }), []);

  return { onKeyDown, onCellClick, onCellOpen, onCellDragStart, onCellStars };
}
