import { StudioError } from '../../src-shared/studio-error';

/** Where a screen shows an action's outcome: a message in words, or the error it ended with. */
export interface ActionFeedback {
  onMessage(message: string): void;
  onError(error: StudioError | undefined): void;
}

/**
 * Runs one action for a screen's notice line: the last error is cleared first, then the action's
 * message (if it has one) or its error, in the person's language, is shown. Never throws.
 */
export function feedbackRunner({ onMessage, onError }: ActionFeedback) {
  return async (action: () => Promise<string | undefined>): Promise<void> => {
    onError(undefined);
    try {
      const message = await action();
      if (message) onMessage(message);
    } catch (err) {
      onError(StudioError.from(err));
    }
  };
}
