import { randomUUID } from 'node:crypto';
import { StudioError } from '../../../src-shared/studio-error';
import { redact } from '../secrets/secret-store';
import { errorFromResponse } from './gateway-error';

export interface GatewayRequest {
  baseUrl: string;
  path: string;
  method?: string;
  /** Header name and value that carry the key; the key never goes into a URL. */
  auth?: { header: string; value: string };
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface GatewayResponse {
  response: Response;
  requestId: string;
}

export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * One HTTP exchange with a gateway. Sends its own X-Request-ID so that even an answer that never
 * arrives has an id to report. Network failures and timeouts become retryable errors; the caller
 * decides what an HTTP error means.
 */
export async function gatewayFetch(req: GatewayRequest): Promise<GatewayResponse> {
  const requestId = `studio-${randomUUID()}`;
  const headers: Record<string, string> = {
    accept: 'application/json',
    'x-request-id': requestId,
    ...req.headers,
  };
  if (req.auth) headers[req.auth.header] = req.auth.value;
  let body: string | undefined;
  if (req.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  const timeout = AbortSignal.timeout(req.timeoutMs ?? 30_000);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  try {
    const response = await fetch(joinUrl(req.baseUrl, req.path), {
      method: req.method ?? 'GET',
      headers,
      body,
      signal,
    });
    return { response, requestId: response.headers.get('x-request-id') ?? requestId };
  } catch (err) {
    const secret = req.auth?.value;
    if (req.signal?.aborted) {
      throw new StudioError({ code: 'STUDIO_CANCELLED', message: 'The request was cancelled.', requestId });
    }
    if (timeout.aborted) {
      throw new StudioError({
        code: 'NETWORK_TIMEOUT',
        message: `No answer from ${new URL(req.baseUrl).host} in ${Math.round((req.timeoutMs ?? 30_000) / 1000)} s.`,
        requestId,
        retryable: true,
        source: 'network',
      });
    }
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new StudioError({
      code: 'NETWORK_ERROR',
      message: redact(
        `Could not reach ${safeHost(req.baseUrl)}: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
        [secret],
      ),
      requestId,
      retryable: true,
      source: 'network',
    });
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the gateway';
  }
}

/** Reads a JSON answer, or turns an HTTP error into a typed error with its code and request id. */
export async function readJson<T>(exchange: GatewayResponse, secret?: string): Promise<T> {
  const { response, requestId } = exchange;
  const text = await response.text();
  if (!response.ok) {
    const error = errorFromResponse(response.status, requestId, text);
    throw new StudioError({ ...error.toView(), message: redact(error.message, [secret]) });
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new StudioError({
      code: 'GATEWAY_BAD_RESPONSE',
      message: 'The gateway answered with something that is not JSON.',
      httpStatus: response.status,
      requestId,
      source: 'gateway',
    });
  }
}
