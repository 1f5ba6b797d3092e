import { z } from 'zod';
import { StudioError } from '../../../src-shared/studio-error';
import { gatewayFetch, readError, readText } from '../gateway/gateway-request';

const envelope = z
  .object({
    code: z.coerce.number(),
    statusText: z.string().optional(),
    message: z.string().optional(),
    data: z.unknown(),
  })
  .passthrough();
const promptResult = z
  .union([
    z.object({ obj: z.string().optional(), value: z.string().default('') }).passthrough(),
    z.string(),
    z.null(),
  ])
  .optional()
  .transform((v) => (typeof v === 'string' ? v : (v?.value ?? '')));
const searchData = z
  .object({
    code: z.coerce.number().optional(),
    rawSearch: z
      .array(
        z
          .object({ id: z.coerce.string(), q: z.string().default(''), a: z.string().default('') })
          .passthrough(),
      )
      .default([]),
    userSystemPrompt: promptResult,
    quotePrompt: promptResult,
  })
  .passthrough();

/**
 * The knowledge-base API. The application behind it answers its own failures (a bad key, a
 * missing permission, bad parameters) with HTTP 200 and an error `code` in the body, so success
 * is judged by the body's code, not only by the HTTP status.
 */
export class KbClient {
  constructor(
    private account: {
      baseUrl: string;
      key: string;
      /** Every other key the studio knows, so that none a gateway repeats comes back out of this client. */
      knownKeys?: () => readonly string[];
    },
  ) {}

  private async post(
    path: string,
    body: unknown,
  ): Promise<{ data: unknown; message: string; status: number; requestId: string }> {
    const ex = await gatewayFetch({
      baseUrl: this.account.baseUrl,
      path,
      method: 'POST',
      body,
      auth: { header: 'apikey', value: this.account.key },
      secrets: [this.account.key, ...(this.account.knownKeys?.() ?? [])],
      timeoutMs: 120_000,
    });
    const { response, requestId } = ex;
    if (!response.ok) throw await readError(ex);
    // Scrubbed before parsing: the knowledge base's own error codes, messages and search hits all
    // come from this text.
    const text = await readText(ex);
    let parsed;
    try {
      parsed = envelope.parse(JSON.parse(text));
    } catch {
      throw new StudioError({
        code: 'GATEWAY_BAD_RESPONSE',
        message: 'The knowledge base answered with something unexpected.',
        httpStatus: response.status,
        requestId,
        source: 'gateway',
      });
    }
    if (parsed.code !== 200) {
      throw new StudioError({
        code: parsed.statusText || `KB_${parsed.code}`,
        message: parsed.message || `The knowledge base refused the request (code ${parsed.code}).`,
        httpStatus: response.status,
        requestId,
        retryable:
          parsed.code === 429 ||
          (parsed.code >= 500 &&
            !parsed.statusText?.startsWith('unAuth') &&
            parsed.statusText !== 'invalidParams'),
        source: 'gateway',
      });
    }
    return { data: parsed.data, message: parsed.message ?? '', status: response.status, requestId };
  }

  async pushData(input: {
    kbId: string;
    mode: 'index' | 'qa';
    prompt?: string;
    data: { q: string; a: string }[];
  }): Promise<{ inserted: number; message: string }> {
    const { data, message } = await this.post('/api/openapi/kb/pushData', input);
    // A count is a whole number of records: "-Infinity", 1e308 or 1.5 would be summed into the
    // upload's total and break it (kbPushSchema wants an int). The rows did arrive; the count is unknown.
    const count = typeof data === 'number' ? data : Number(data);
    return { inserted: Number.isSafeInteger(count) && count >= 0 ? count : 0, message };
  }

  async search(input: { appId: string; similarity: number; limit: number; prompts: string[] }) {
    const { data, status, requestId } = await this.post('/api/openapi/kb/appKbSearch', {
      appId: input.appId,
      similarity: input.similarity,
      limit: input.limit,
      prompts: input.prompts.map((value) => ({ obj: 'Human', value })),
    });
    // Hits of another shape are a bad answer in words, not a ZodError with the parser's text.
    const hits = searchData.safeParse(data ?? {});
    if (!hits.success)
      throw new StudioError({
        code: 'GATEWAY_BAD_RESPONSE',
        message: 'The knowledge base answered the search with something unexpected.',
        httpStatus: status,
        requestId,
        source: 'gateway',
      });
    return hits.data;
  }
}
