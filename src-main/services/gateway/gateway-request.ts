import { randomUUID } from 'node:crypto';
import { StudioError } from '../../../src-shared/studio-error';
import { redact } from '../secrets/secret-store';
import { errorFromResponse } from './gateway-error';
import { logCaught } from '../log/studio-log';
import { stallWatched } from './stall-watch';
import { streamedRequest, type Transport } from './streamed-answer';

export interface GatewayRequest {
  baseUrl: string;
  path: string;
  method?: string;
  /** Header name and value that carry the key; the key never goes into a URL. */
  auth?: { header: string; value: string };
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /**
   * For an answer read as it streams (a ZIP, an image): `timeoutMs` then covers only the wait for
   * its headers, and the body is ended as stalled once no byte has come for this long. A limit on
   * the whole exchange would cut a slow but steady download of a large batch; none would let a
   * gateway that stops sending hold the account's one download slot for good.
   */
  stallMs?: number;
  /**
   * How a streamed answer is read (streamed-answer.ts): `socket` for one of hundreds of megabytes
   * (a batch's ZIP), node:http's keep-alive agent otherwise.
   */
  transport?: Transport;
  signal?: AbortSignal;
  /**
   * Every key the studio knows (all profiles'), besides the one in `auth`, which always counts:
   * a gateway may repeat any of them, and none may come back out of this exchange.
   */
  secrets?: readonly (string | undefined)[];
}

export interface GatewayResponse {
  response: Response;
  /** The gateway's request id, scrubbed like any other text it sends. */
  requestId: string;
  /**
   * Takes every known key out of a text from this exchange. Gateway text enters the studio only
   * through here (readText, readError, readJson), so a key a gateway repeats in a message, a header
   * or a body cannot be stored, emitted or shown.
   */
  scrub(text: string): string;
  /** The body's chunks as they come, ended as stalled where the request set `stallMs`. */
  chunks(): AsyncIterable<Uint8Array>;
  /**
   * What a failure while the rest of the answer is read means, in words: cancelled, out of time,
   * stalled, or an answer that broke off. Fetch resolves with the headers; the body can still fail after.
   */
  broke(error: unknown): StudioError;
}

/** The keys to take out of what comes back: the known ones, the auth value, and the token inside it. */
function secretsOf(req: GatewayRequest): string[] {
  const all = [...(req.secrets ?? [])];
  if (req.auth) all.push(req.auth.value, req.auth.value.replace(/^(Bearer|Basic)\s+/i, ''));
  return all.filter((s): s is string => !!s);
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
  const secrets = secretsOf(req);
  const scrub = (text: string) => redact(text, secrets);
  const deadline = new AbortController();
  // Unref'd, as AbortSignal.timeout's is: a finished exchange keeps no process alive.
  const timer = setTimeout(() => deadline.abort(), req.timeoutMs ?? 30_000).unref();
  const signal = req.signal ? AbortSignal.any([req.signal, deadline.signal]) : deadline.signal;
  const failure = (err: unknown, phase: 'connect' | 'body', id: string): StudioError => {
    if (req.signal?.aborted) {
      return new StudioError({
        code: 'STUDIO_CANCELLED',
        message: 'The request was cancelled.',
        requestId: id,
      });
    }
    // A stall is aborted with its own words (below); the limit, with none.
    if (deadline.signal.reason instanceof StudioError) return deadline.signal.reason;
    if (deadline.signal.aborted) {
      return new StudioError({
        code: 'NETWORK_TIMEOUT',
        message: `No answer from ${safeHost(req.baseUrl)} in ${Math.round((req.timeoutMs ?? 30_000) / 1000)} s.`,
        requestId: id,
        retryable: true,
        source: 'network',
      });
    }
    return new StudioError({
      code: 'NETWORK_ERROR',
      message: scrub(
        phase === 'body'
          ? `The answer from ${safeHost(req.baseUrl)} broke off before its end.`
          : `Could not reach ${safeHost(req.baseUrl)}: ${networkWords(err)}.`,
      ),
      requestId: id,
      retryable: true,
      source: 'network',
    });
  };
  try {
    const url = joinUrl(req.baseUrl, req.path);
    const init = { method: req.method ?? 'GET', headers, body, signal };
    const stallMs = req.stallMs;
    if (stallMs === undefined) {
      const response = await fetch(url, init);
      const answerId = scrub(response.headers.get('x-request-id') ?? requestId);
      const broke = (err: unknown) => failure(err, 'body', answerId);
      return { response, requestId: answerId, scrub, broke, chunks: () => bodyOf(response) };
    }
    // An answer read as it streams (a ZIP, an image) comes over node:http or a socket of its own,
    // as `transport` says: see streamed-answer.ts.
    const { response, chunks } = await streamedRequest(url, init, req.transport);
    const answerId = scrub(response.headers.get('x-request-id') ?? requestId);
    const broke = (err: unknown) => failure(err, 'body', answerId);
    // The body's read then fails with this reason, which a ZIP's reader takes for a cut.
    const stalled = () =>
      deadline.abort(
        new StudioError({
          code: 'NETWORK_TIMEOUT',
          message: `${safeHost(req.baseUrl)} stopped sending for ${Math.round(stallMs / 1000)} s.`,
          requestId: answerId,
          retryable: true,
          source: 'network',
        }),
      );
    return {
      response,
      requestId: answerId,
      scrub,
      broke,
      // Read as it streams, the body is watched for a stall instead; read whole (an error's text),
      // it keeps the limit.
      chunks: () => {
        clearTimeout(timer);
        return stallWatched(chunks(), stallMs, stalled);
      },
    };
  } catch (err) {
    throw failure(err, 'connect', requestId);
  }
}

/** An answer's body, empty where it has none (a 204, a HEAD). */
function bodyOf(response: Response): AsyncIterable<Uint8Array> {
  return (response.body ?? (async function* () {})()) as AsyncIterable<Uint8Array>;
}

/**
 * Why a connection failed, in words: undici's own text ("fetch failed", "other side closed") and
 * codes (UND_ERR_SOCKET, ECONNRESET) mean nothing to the people who read the message.
 */
function networkWords(err: unknown): string {
  // fetch's codes are on its error's cause; node:http's (a streamed answer's) on the error itself.
  const failed = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const raw = failed?.cause?.code ?? failed?.code;
  const code = typeof raw === 'string' ? raw : '';
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the address was not found';
  if (/TIMEOUT|ETIMEDOUT/.test(code)) return 'the connection timed out';
  if (/CERT|TLS|SSL|SELF_SIGNED/.test(code)) return "the gateway's certificate was not accepted";
  if (/ECONNRESET|EPIPE|UND_ERR_SOCKET|CLOSED/.test(code))
    return 'the connection was closed before an answer';
  return 'the connection failed';
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the gateway';
  }
}

/** The answer's body as text, every known key taken out. */
export async function readText(exchange: GatewayResponse): Promise<string> {
  return exchange.scrub(await readRawText(exchange));
}

/**
 * The answer's body as it came, for a caller that scrubs what it keeps itself (megabytes of image
 * data). A body that breaks off is a network error in words, not undici's "terminated".
 */
export async function readRawText(exchange: GatewayResponse): Promise<string> {
  try {
    return await exchange.response.text();
  } catch (err) {
    throw exchange.broke(err);
  }
}

/** An HTTP error answer as a typed error with its code and request id, built from scrubbed text. */
export async function readError(exchange: GatewayResponse): Promise<StudioError> {
  const text = await readText(exchange).catch((err: unknown) => {
    logCaught('gateway error body', err);
    return '';
  });
  return errorFromResponse(exchange.response.status, exchange.requestId, text);
}

/** Reads a JSON answer, or turns an HTTP error into a typed error with its code and request id. */
export async function readJson<T>(exchange: GatewayResponse, secret?: string): Promise<T> {
  const { response, requestId } = exchange;
  const text = redact(await readText(exchange), [secret]);
  if (!response.ok) throw errorFromResponse(response.status, requestId, text);
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
