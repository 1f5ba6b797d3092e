import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { answerQuestion, useConfirmStore, type Question } from './confirm-store';
import { Modal } from './Modal';

/**
 * One question: a yes/no has Cancel focused (the safe answer is the easy one); a question for text
 * has its field focused, and Enter there answers.
 */
function QuestionDialog({ question }: { question: Question }) {
  const { t } = useTranslation();
  const [text, setText] = useState(question.initialText ?? '');
  const blank = question.withText && !text.trim();
  return (
    <Modal title={t('confirm.title')} onClose={() => answerQuestion(false)} testId="confirm-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!blank) answerQuestion({ text: text.trim() });
        }}
      >
        {question.withText ? (
          <label className="field">
            <span data-testid="confirm-message">{question.message}</span>
            <input
              value={text}
              onChange={(e) => setText(e.target.value)}
              // A prefilled name is selected, so typing replaces it and an arrow key keeps it.
              onFocus={(e) => e.currentTarget.select()}
              data-autofocus
            />
          </label>
        ) : (
          <p className="confirm-message" data-testid="confirm-message">
            {question.message}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={blank} data-testid="confirm-accept">
            {t('confirm.yes')}
          </button>
          <button
            type="button"
            onClick={() => answerQuestion(false)}
            data-testid="confirm-dismiss"
            data-autofocus={question.withText ? undefined : true}
          >
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Shows the question confirmAction or askForText asked, one at a time. */
export function ConfirmHost() {
  const question = useConfirmStore((s) => s.question);
  return question ? <QuestionDialog key={question.id} question={question} /> : null;
}
