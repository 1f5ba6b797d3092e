import type { StudioError } from '../../../src-shared/studio-error';

const CAPACITY = /(invalid|cooling|locked|expired)/i;

/** "All tokens invalid, cooling down, locked or expired": the gateway has no capacity; retrying only makes it worse. */
export function isCapacityProblem(error: StudioError): boolean {
  return (
    (error.httpStatus ?? 0) >= 500 && /token|key|account/i.test(error.message) && CAPACITY.test(error.message)
  );
}

/**
 * Whether a generation may succeed if sent again, by the spec's retry table (realtime-image-api.md):
 * 429, 502, 503, 504 and network errors are retried, a 200 without an image once; 400, 401, 402/403,
 * 500, policy refusals and a gateway out of capacity never are.
 */
export function realtimeRetryable(error: StudioError, earlier: readonly StudioError[]): boolean {
  if (error.code === 'STUDIO_CAPACITY' || error.code === 'STUDIO_CANCELLED') return false;
  if (error.code === 'STUDIO_NO_IMAGE') return !earlier.some((e) => e.code === 'STUDIO_NO_IMAGE');
  if (error.source === 'network') return error.code !== 'NETWORK_TIMEOUT';
  if (isCapacityProblem(error)) return false;
  return [429, 502, 503, 504].includes(error.httpStatus ?? 0);
}
