import { useTranslation } from 'react-i18next';
import { Modal } from '../shell/Modal';
import type { ActionFeedback } from '../shared/action-feedback';
import { useBoardActions, type Board } from './board-actions';

interface Props extends ActionFeedback {
  /** The images to add: the selection, else the focused image, taken when the menu opened. */
  ids: string[];
  boards: Board[];
  /** The board the gallery shows, whose images can be taken off it. */
  active: Board | undefined;
  onClose(): void;
}

/** "Add to board" (B, or the toolbar): every board as a button, a new one, or off the current one. */
export function AddToBoardDialog({ ids, boards, active, onClose, ...feedback }: Props) {
  const { t } = useTranslation();
  const actions = useBoardActions(feedback);
  const then = (action: Promise<void>) => {
    onClose();
    void action;
  };
  return (
    <Modal title={t('boards.addToTitle', { count: ids.length })} onClose={onClose} testId="board-menu">
      <ul className="board-menu">
        {boards.map((board, i) => (
          <li key={board.id}>
            <button
              type="button"
              data-autofocus={i === 0 ? true : undefined}
              onClick={() => then(actions.setImages(board, ids, true))}
            >
              {board.name} <span className="badge">{board.images}</span>
            </button>
          </li>
        ))}
        <li>
          <button type="button" onClick={() => then(actions.create(ids))}>
            + {t('boards.newWith')}
          </button>
        </li>
        {active && (
          <li>
            <button
              type="button"
              className="danger"
              onClick={() => then(actions.setImages(active, ids, false))}
              data-testid="board-remove-images"
            >
              {t('boards.removeFrom')}
            </button>
          </li>
        )}
      </ul>
      <div className="actions">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </Modal>
  );
}
