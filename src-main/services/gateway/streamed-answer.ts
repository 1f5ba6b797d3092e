import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { socketAnswer, type RawAnswer } from './socket-answer';
import { WaitingChunks } from './waiting-chunks';

/** Redirects followed, as fetch follows them, before the answer counts as one that never came. */
const MAX_REDIRECTS = 5;

/** A streamed answer: the headers as a Response, the body as node's own chunks. */
export interface StreamedAnswer {
  /**
   * Status and headers, as fetch gives them. Its body is drawn from the same connection only when
   * read (an error's text), so a caller that streams `chunks` never pays for web streams.
   */
  response: Response;
  /** The body's chunks as the transport hands them over: no web-stream layer. */
  chunks(): AsyncIterable<Uint8Array>;
}

/**
 * How an answer's bytes are read: `node` over node:http and its keep-alive agent (an item's image,
 * many small answers from one gateway); `socket` straight from a socket of its own
 * (socket-answer.ts: a batch's ZIP, hundreds of megabytes, where node:http's copy of every byte
 * costs a CPU-second).
 */
export type Transport = 'node' | 'socket';

/**
 * One request whose answer is read as it streams (a batch ZIP, an image), instead of by fetch:
 * undici's web streams cost 1.3 to 1.4 CPU-seconds of user time for a 665 MB archive where
 * node:http takes 0.75 (same machine, same gateway). Behaves as fetch does where the studio relies
 * on it: no proxy (fetch in Node uses none either), redirects followed with the credentials
 * dropped when they lead to another origin, the signal ending the exchange at any point with its
 * reason (a stall's words reach the reader), and connection errors carrying their code.
 */
export async function streamedRequest(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
  transport: Transport = 'node',
  redirects = 0,
): Promise<StreamedAnswer> {
  const { signal } = init;
  if (signal.aborted) throw signal.reason;
  const target = new URL(url);
  const raw = await (transport === 'socket' ? socketAnswer : nodeAnswer)(target, init, signal);
  const { status } = raw;
  const location = raw.headers.get('location')?.[0];
  if (status >= 300 && status < 400 && location && status !== 304) {
    raw.discard();
    if (redirects >= MAX_REDIRECTS) throw new Error('too many redirects');
    const next = new URL(location, target);
    const headers = { ...init.headers };
    // As fetch does: a redirect to another origin carries no credentials, and a 303 (or a POST
    // answered 301/302) becomes a GET without its body.
    if (next.origin !== target.origin)
      for (const name of Object.keys(headers))
        if (/^(authorization|x-api-key|api-key|cookie)$/i.test(name)) delete headers[name];
    const asGet = status === 303 || ((status === 301 || status === 302) && init.method === 'POST');
    if (asGet) delete headers['content-type'];
    return streamedRequest(
      next.href,
      { ...init, headers, method: asGet ? 'GET' : init.method, body: asGet ? undefined : init.body },
      transport,
      redirects + 1,
    );
  }
  if (status < 200 || status > 599) {
    raw.discard();
    throw new Error(`an answer with status ${status}`);
  }
  try {
    return answerOf(raw);
  } catch (err) {
    // Headers a Response refuses: an answer that cannot be read, as fetch would reject it.
    raw.discard();
    throw err;
  }
}

/** The answer over node:http. */
function nodeAnswer(
  target: URL,
  init: { method: string; headers: Record<string, string>; body?: string },
  signal: AbortSignal,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { method: init.method, headers: init.headers });
    let answer: IncomingMessage | undefined;
    const abort = () => {
      // Destroyed with the signal's reason, the body's reader sees that reason, not "aborted".
      if (answer) answer.destroy(signal.reason as Error);
      else req.destroy(signal.reason as Error);
    };
    signal.addEventListener('abort', abort, { once: true });
    const settled = () => signal.removeEventListener('abort', abort);
    req.on('error', (err) => {
      settled();
      reject(signal.aborted ? signal.reason : err);
    });
    req.on('response', (res) => {
      answer = res;
      res.once('close', settled);
      // A body's failure reaches whoever reads it; one nobody reads yet must not end the process.
      res.on('error', () => undefined);
      const headers = new Map<string, string[]>();
      for (const [name, value] of Object.entries(res.headers))
        headers.set(name, Array.isArray(value) ? value : value === undefined ? [] : [value]);
      const status = res.statusCode ?? 0;
      let iterator: AsyncIterator<Buffer> | undefined;
      resolve({
        status,
        statusMessage: res.statusMessage ?? '',
        headers,
        chunks: () => (iterator ??= chunksOf(res)),
        // A redirect's body is drained, so its connection goes back to the agent.
        discard: () => (status >= 300 && status < 400 ? res.resume() : res.destroy()),
      });
    });
    req.end(init.body);
  });
}

/** The answer's headers as a Response whose body is drawn from the raw answer only if someone reads it. */
function answerOf(raw: RawAnswer): StreamedAnswer {
  const { status } = raw;
  const headers = new Headers();
  for (const [name, values] of raw.headers) for (const v of values) headers.append(name, v);
  const noBody = status === 204 || status === 205 || status === 304;
  const body = noBody
    ? null
    : new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const next = await raw.chunks().next();
            if (next.done) controller.close();
            else controller.enqueue(next.value);
          },
          cancel() {
            raw.discard();
          },
        },
        // Nothing is pulled until it is read.
        { highWaterMark: 0 },
      );
  if (noBody) raw.discard();
  // A reason phrase Response would refuse (control characters) is dropped; nothing reads it.
  const statusText = /^[\t\x20-\x7e\x80-\xff]*$/.test(raw.statusMessage) ? raw.statusMessage : '';
  return {
    response: new Response(body, { status, statusText, headers }),
    chunks: () => ({ [Symbol.asyncIterator]: () => raw.chunks() }),
  };
}

/**
 * The body's chunks as node:http hands them over. Not Readable's own async iterator: a reader
 * slower than the network finds several chunks waiting, and its read() joins them into a new buffer,
 * a copy of the bytes and a fresh allocation each time.
 */
function chunksOf(res: IncomingMessage): AsyncIterator<Buffer> {
  const chunks = new WaitingChunks(res);
  // A body already drained (a 204's) or broken before anyone read it.
  if (res.readableEnded) chunks.end();
  else if (res.destroyed) chunks.fail(new Error('the answer ended before its end'));
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => chunks.end());
  res.on('error', (err) => chunks.fail(err));
  // Closed without its end (a connection that broke, a destroy without a reason): cut.
  res.on('close', () => {
    if (!chunks.ended) chunks.fail(new Error('the answer ended before its end'));
  });
  return chunks;
}
