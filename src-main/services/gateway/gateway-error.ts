import { StudioError } from '../../../src-shared/studio-error';

/** Statuses where the same request may succeed later. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Reads any of the gateway's error shapes into one error: the batch envelope
 * `{error: {type, code, message}}`, the native `{error: {code: int, message, status}}`, the
 * knowledge-base body `{code, statusText, message}`, or a proxy's page with no envelope at all.
 */
export function errorFromResponse(
  status: number,
  requestId: string | undefined,
  bodyText: string,
): StudioError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    parsed = undefined;
  }
  const body = record(parsed);
  const envelope = record(body?.error);
  let code: string | undefined;
  let message: string | undefined;
  if (envelope) {
    if (typeof envelope.code === 'string') code = envelope.code;
    else if (typeof envelope.status === 'string') code = envelope.status;
    if (typeof envelope.message === 'string') message = envelope.message;
  } else if (body && typeof body.code === 'number') {
    code = typeof body.statusText === 'string' && body.statusText ? body.statusText : `KB_${body.code}`;
    if (typeof body.message === 'string') message = body.message;
  }
  return new StudioError({
    code: code ?? `HTTP_${status}`,
    message: message ?? `The gateway answered HTTP ${status} without an explanation.`,
    httpStatus: status,
    requestId,
    retryable: isRetryableStatus(status),
    source: 'gateway',
  });
}
