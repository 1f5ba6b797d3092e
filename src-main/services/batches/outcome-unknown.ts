import type { StudioError } from '../../../src-shared/studio-error';

/**
 * Whether an error leaves it unknown if the batch was created: no answer at all, or a 5xx that
 * is not the batch API's own (a proxy's page, a generic internal error). A definite answer from the
 * batch API means nothing was created and the key is spent.
 */
export function outcomeUnknown(error: StudioError): boolean {
  if (error.source === 'network') return true;
  if (error.httpStatus === undefined || error.httpStatus < 500) return false;
  return !error.code.startsWith('BATCH_IMAGE_');
}
