import type { CSSProperties, KeyboardEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryImage, ReviewMark } from '../../src-shared/library-view';
import { Modal } from '../shell/Modal';
import './choice.css';

/**
 * Images side by side over the window, to choose one: the survey and compare across models. A bar
 * with the title, the view's `notes` (its keys) and Close; a `notice` when there is nothing to
 * choose between; then the grid of takes. The keys are the view's own (`onKeyDown`): it is driven
 * by them, so the dialog itself takes the focus.
 */
export function ChoiceView({
  className,
  title,
  notes,
  notice,
  grid,
  onClose,
  onKeyDown,
  testId,
  children,
}: {
  className: string;
  title: string;
  notes: ReactNode;
  notice?: string;
  grid: { className: string; style: CSSProperties };
  onClose(): void;
  onKeyDown(e: KeyboardEvent): void;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      className={`lightbox compare ${className}`}
      label={title}
      initialFocus="dialog"
      onClose={onClose}
      onKeyDown={onKeyDown}
      testId={testId}
    >
      <div className="compare-bar actions">
        <strong>{title}</strong>
        {notes}
        <button type="button" onClick={onClose}>
          {t('library.close')}
        </button>
      </div>
      {notice && <p className="notice">{notice}</p>}
      <div className={grid.className} style={grid.style}>
        {children}
      </div>
    </Modal>
  );
}

/**
 * One image of a choice, its caption (the view's) below it: outlined when focused, and classed by
 * its mark so the view can dim what is decided against. A click focuses it.
 */
export function ChoiceTake({
  item,
  className,
  focused,
  src,
  onFocus,
  testId,
  children,
}: {
  item: LibraryImage;
  className: string;
  focused: boolean;
  src: string;
  onFocus(): void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <figure
      className={`choice-take ${className}${focused ? ' focused' : ''}${item.mark ? ` mark-${item.mark}` : ''}`}
      onClick={onFocus}
      data-testid={testId}
      data-id={item.id}
      data-model={item.model}
      data-mark={item.mark ?? ''}
      aria-current={focused}
    >
      <img src={src} alt={item.prompt} draggable={false} />
      <figcaption>{children}</figcaption>
    </figure>
  );
}

/** An image's review mark in words, in a take's caption; nothing when it has none. */
export function MarkBadge({ mark, testId }: { mark: ReviewMark; testId: string }) {
  const { t } = useTranslation();
  if (!mark) return null;
  return (
    <span className="badge" data-testid={testId}>
      {mark === 'alternative' ? t('run.alternative') : t(`library.${mark}`)}
    </span>
  );
}
