import type { StudioError } from '../../../src-shared/studio-error';

/**
 * Whether an error leaves it unknown if the batch was created: no answer at all, a 2xx that could
 * not be read, or a 5xx that is not the batch API's own (a proxy's page, a generic internal error).
 * A definite answer from the batch API means nothing was created and the key is spent.
 */
export function outcomeUnknown(error: StudioError): boolean {
  if (error.source === 'network') return true;
  // A 2xx the studio could not read (cut, not JSON, not a batch): the gateway took the create and
  // may well have made the batch and placed its hold. Only a resend with the same key can tell; a
  // new submission with a new key could pay for the same batch twice.
  if (error.httpStatus !== undefined && error.httpStatus >= 200 && error.httpStatus < 300) return true;
  if (error.httpStatus === undefined || error.httpStatus < 500) return false;
  return !error.code.startsWith('BATCH_IMAGE_');
}
