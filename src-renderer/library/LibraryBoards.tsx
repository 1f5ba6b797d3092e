import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActionFeedback } from '../shared/action-feedback';
import { useBoardActions, type Board } from './board-actions';
import { carriesLibraryIds, droppedIds } from './board-drag';

interface BoardsProps extends ActionFeedback {
  boards: Board[];
  /** Images in the library, for "All images". */
  images: number;
  /** The board the gallery is filtered by, if any. */
  active: string | undefined;
  onSelect(id: string | undefined): void;
  /** Folded to a narrow strip (remembered), so the gallery takes the width. */
  open: boolean;
  onToggle(): void;
}

/**
 * The boards beside the gallery: "All images" and every board with its count. A click filters the
 * gallery; dropping dragged cells on a board adds them; each board can be renamed or deleted.
 */
export function LibraryBoards({
  boards,
  images,
  active,
  onSelect,
  open,
  onToggle,
  ...feedback
}: BoardsProps) {
  const { t } = useTranslation();
  const actions = useBoardActions(feedback);
  const [over, setOver] = useState<string>();
  if (!open)
    return (
      <button
        type="button"
        className="lib-boards-folded"
        aria-expanded={false}
        onClick={onToggle}
        title={t('library.boardsShow')}
        data-testid="library-boards-toggle"
      >
        {t('library.boardsShow')} ›
      </button>
    );

  return (
    <nav className="lib-boards" aria-labelledby="lib-boards-title" data-testid="library-boards">
      <div className="lib-boards-head">
        <h2 id="lib-boards-title">{t('boards.title')}</h2>
        <button
          type="button"
          className="small"
          aria-expanded
          onClick={onToggle}
          title={t('library.boardsHide')}
          data-testid="library-boards-toggle"
        >
          ‹ {t('library.boardsHideShort')}
        </button>
        <button
          type="button"
          className="small"
          onClick={() => void actions.create()}
          data-testid="board-create"
        >
          + {t('boards.create')}
        </button>
      </div>
      <ul>
        <li>
          <button
            type="button"
            className={`lib-board${active === undefined ? ' active' : ''}`}
            aria-current={active === undefined ? 'true' : undefined}
            onClick={() => onSelect(undefined)}
          >
            <span className="lib-board-name">{t('boards.all')}</span>
            <span className="badge">{images}</span>
          </button>
        </li>
        {boards.map((board) => (
          <li
            key={board.id}
            className={`lib-board-item${over === board.id ? ' drop-over' : ''}`}
            onDragOver={(e) => {
              if (!carriesLibraryIds(e)) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'copy';
              setOver(board.id);
            }}
            onDragLeave={() => setOver((o) => (o === board.id ? undefined : o))}
            onDrop={(e) => {
              e.preventDefault();
              setOver(undefined);
              void actions.setImages(board, droppedIds(e), true);
            }}
            data-testid="board"
            data-board-id={board.id}
          >
            <button
              type="button"
              className={`lib-board${active === board.id ? ' active' : ''}`}
              aria-current={active === board.id ? 'true' : undefined}
              onClick={() => onSelect(board.id)}
              data-testid="board-open"
            >
              <span className="lib-board-name">{board.name}</span>
              <span className="badge" data-testid="board-count">
                {board.images}
              </span>
            </button>
            <span className="lib-board-tools">
              <button
                type="button"
                className="small"
                aria-label={t('boards.renameLabel', { name: board.name })}
                title={t('boards.rename')}
                onClick={() => void actions.rename(board)}
              >
                ✎
              </button>
              <button
                type="button"
                className="small"
                aria-label={t('boards.removeLabel', { name: board.name })}
                title={t('boards.remove')}
                onClick={() => void actions.remove(board, () => active === board.id && onSelect(undefined))}
              >
                ×
              </button>
            </span>
          </li>
        ))}
      </ul>
      <p className="muted lib-boards-hint">{boards.length ? t('boards.dropHint') : t('boards.none')}</p>
    </nav>
  );
}
