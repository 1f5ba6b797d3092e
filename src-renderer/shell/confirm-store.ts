import { create } from 'zustand';

/** No, or yes (with the text typed, when the question asked for one). */
export type Answer = false | { text: string };

export interface Question {
  /** A new question is a new dialog, so focus is taken and given back for each. */
  id: number;
  message: string;
  /** Asks for a line of text (a folder), not only yes or no. */
  withText: boolean;
  /** The text the field starts with (a board's current name, to rename it). */
  initialText?: string;
  /** What the question is about (a batch): when that changes, the question is withdrawn. */
  about?: string;
  resolve(answer: Answer): void;
}

/** The question the studio is asking, shown by ConfirmHost; at most one at a time. */
export const useConfirmStore = create<{ question?: Question }>(() => ({}));

let asked = 0;

function ask(message: string, withText: boolean, initialText?: string, about?: string): Promise<Answer> {
  return new Promise((resolve) => {
    useConfirmStore.getState().question?.resolve(false);
    useConfirmStore.setState({ question: { id: ++asked, message, withText, initialText, about, resolve } });
  });
}

/**
 * Asks a yes/no question in the studio's own modal (not `window.confirm`, which freezes the page,
 * cannot be styled or translated in its buttons, and is not part of the tab order). Resolves true
 * for yes. A second question while one is open answers the first one no.
 */
export async function confirmAction(message: string, about?: string): Promise<boolean> {
  return (await ask(message, false, undefined, about)) !== false;
}

/**
 * Closes the open question about `about`, answering it no: what it asked about has changed (a batch
 * finished while "Cancel it?" was open). Answers whether a question was withdrawn.
 */
export function withdrawQuestion(about: string): boolean {
  const question = useConfirmStore.getState().question;
  if (question?.about !== about) return false;
  answerQuestion(false);
  return true;
}

/** Asks for a line of text in the same modal (`window.prompt` does not exist in Electron). */
export async function askForText(message: string, initialText?: string): Promise<string | undefined> {
  const answer = await ask(message, true, initialText);
  return answer === false ? undefined : answer.text;
}

/** Answers the open question and closes it. */
export function answerQuestion(answer: Answer): void {
  const question = useConfirmStore.getState().question;
  useConfirmStore.setState({ question: undefined });
  question?.resolve(answer);
}
