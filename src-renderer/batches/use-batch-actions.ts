import { useState } from 'react';
import { useStudioMutation } from '../app/studio-queries';

/**
 * Cancelling, downloading and deleting outputs change a batch's items (their state, their files). A
 * retry makes a new batch, the folder changes nothing, and a deleted record has no items to show.
 */
const CHANGES_ITEMS = { invalidates: ['batches.items'] } as const;

/**
 * The writes the batch detail offers, one mutation each, so each button knows whether its own call is
 * under way. One error is shown: that of the action asked last, cleared when another is asked.
 */
export function useBatchActions() {
  const actions = {
    cancel: useStudioMutation('batches.cancel', CHANGES_ITEMS),
    download: useStudioMutation('batches.download', CHANGES_ITEMS),
    retry: useStudioMutation('batches.retryFailed'),
    folder: useStudioMutation('batches.openFolder'),
    outputs: useStudioMutation('batches.deleteOutputs', CHANGES_ITEMS),
    // A removed batch leaves the list, in this window at once rather than on the event's echo.
    record: useStudioMutation('batches.deleteRecord', { invalidates: ['batches.list'] }),
  };
  const [last, setLast] = useState<keyof typeof actions>();
  /** The action about to be asked for: its error is the one shown from now on. */
  function ask<K extends keyof typeof actions>(name: K): (typeof actions)[K] {
    setLast(name);
    return actions[name];
  }
  return { ask, pending: actions, error: last ? (actions[last].error ?? undefined) : undefined };
}
