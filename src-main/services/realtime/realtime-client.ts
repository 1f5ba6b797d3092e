import { z } from 'zod';
import { StudioError } from '../../../src-shared/studio-error';
import {
  gatewayFetch,
  readError,
  readRawText,
  readText,
  type GatewayResponse,
} from '../gateway/gateway-request';
import { EXTENSION_OF_MIME, sniffImageType } from '../storage/file-names';
import { retryPolicies, withRetry } from '../gateway/retry-policy';
import { isCapacityProblem } from '../gateway/realtime-retry-table';

export const COMMON_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];
export const EXTENDED_RATIOS = ['1:4', '1:8', '4:1', '8:1'];
export const TIERS = ['1K', '2K', '4K'] as const;
export type Tier = (typeof TIERS)[number];

/** Flash models take the extended ratios; Pro models and any model the studio does not know, only the common set. */
export function ratiosFor(model: string): string[] {
  return /flash/i.test(model) ? [...COMMON_RATIOS, ...EXTENDED_RATIOS] : COMMON_RATIOS;
}

/** The spec's recommended total timeout per tier. */
export const TIMEOUT_MS: Record<Tier, number> = { '1K': 120_000, '2K': 180_000, '4K': 300_000 };

export interface RealtimeRequest {
  model: string;
  prompt: string;
  images: { mime: string; data: Buffer }[];
  aspectRatio?: string;
  imageSize: Tier;
}

export interface RealtimeResult {
  mime: string;
  extension: string;
  image: Buffer;
  text: string;
  modelVersion?: string;
  finishReason?: string;
  attempts: number;
  requestId: string;
}

export interface RealtimeAccount {
  baseUrl: string;
  key: string;
  /** Every other key the studio knows, so that none a gateway repeats comes back out of this client. */
  knownKeys?: () => readonly string[];
}

/**
 * A content-policy refusal comes as HTTP 400 INVALID_ARGUMENT, like a bad parameter; only its message
 * tells them apart. It is reported as what it is (SAFETY_BLOCKED), so people change the prompt
 * rather than hunt for a parameter, and it is never retried.
 */
const POLICY_MESSAGE = /content policy|safety|blocked|prohibited/i;
export function asPolicyRefusal(error: StudioError): StudioError {
  if (error.httpStatus !== 400 || !POLICY_MESSAGE.test(error.message)) return error;
  return new StudioError({ ...error.toView(), code: 'SAFETY_BLOCKED', retryable: false });
}

function extensionOf(mime: string): string {
  return EXTENSION_OF_MIME[mime] ?? 'png';
}

/**
 * A generateContent answer, read forgivingly: a field of the wrong type counts as absent, so a
 * damaged answer is judged by the spec's success test (an image, or none) instead of crashing it.
 */
const loose = <T extends z.ZodTypeAny>(schema: T) => schema.optional().catch(undefined);
const answerSchema = z.object({
  candidates: loose(
    z.array(
      z
        .object({
          content: loose(
            z.object({
              parts: z
                .array(
                  z
                    .object({
                      text: loose(z.string()),
                      inlineData: loose(z.object({ mimeType: loose(z.string()), data: loose(z.string()) })),
                    })
                    .catch({}),
                )
                .catch([]),
            }),
          ),
          finishReason: loose(z.string()),
        })
        .catch({}),
    ),
  ),
  modelVersion: loose(z.string()),
});
const modelsSchema = z.object({
  models: z.array(z.object({ name: loose(z.string()) }).catch({})).catch([]),
});

/** An answer that is not what the protocol sends: not JSON, or JSON of another shape. */
function badAnswer(ex: GatewayResponse): StudioError {
  return new StudioError({
    code: 'GATEWAY_BAD_RESPONSE',
    message: 'The answer is not JSON of the generateContent protocol.',
    httpStatus: ex.response.status,
    requestId: ex.requestId,
    source: 'gateway',
    retryable: true,
  });
}

/** The text as JSON of the schema's shape, or undefined. */
function parseAs<T extends z.ZodTypeAny>(schema: T, text: string): z.output<T> | undefined {
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One image now, through the vendor-native generateContent protocol, with the spec's success test
 * and retry table. Raw fetch rather than the vendor SDK: the studio needs the gateway's own key
 * header, the request id of every attempt, exact control of retries, and Node 20 (the SDK's current
 * major wants 22).
 */
export class RealtimeClient {
  constructor(
    private account: RealtimeAccount,
    private options: {
      timeoutMs?: (tier: Tier) => number;
      sleep?: (ms: number) => Promise<void>;
      onAttempt?: (attempt: number) => void;
    } = {},
  ) {}

  private secrets(): string[] {
    return [this.account.key, ...(this.account.knownKeys?.() ?? [])];
  }

  async models(): Promise<string[]> {
    const ex = await gatewayFetch({
      baseUrl: this.account.baseUrl,
      path: '/v1beta/models',
      auth: { header: 'x-imgvendor-api-key', value: this.account.key },
      secrets: this.secrets(),
      timeoutMs: 20_000,
    });
    if (!ex.response.ok) throw await readError(ex);
    const body = parseAs(modelsSchema, await readText(ex));
    if (!body) throw badAnswer(ex);
    return body.models.map((m) => (m.name ?? '').replace(/^models\//, '')).filter(Boolean);
  }

  async generate(req: RealtimeRequest, signal?: AbortSignal): Promise<RealtimeResult> {
    if (req.aspectRatio && !ratiosFor(req.model).includes(req.aspectRatio)) {
      throw new StudioError({
        code: 'STUDIO_RATIO_UNSUPPORTED',
        message: `${req.model} does not take the ratio ${req.aspectRatio}; it was not sent.`,
      });
    }
    const total = AbortSignal.timeout(this.options.timeoutMs?.(req.imageSize) ?? TIMEOUT_MS[req.imageSize]);
    const overall = signal ? AbortSignal.any([signal, total]) : total;
    const body = {
      contents: [
        {
          role: 'user',
          parts: [
            { text: req.prompt },
            ...req.images.map((i) => ({ inlineData: { mimeType: i.mime, data: i.data.toString('base64') } })),
          ],
        },
      ],
      generationConfig: {
        responseModalities: ['TEXT', 'IMAGE'],
        imageConfig: {
          imageSize: req.imageSize,
          ...(req.aspectRatio ? { aspectRatio: req.aspectRatio } : {}),
        },
      },
    };
    const limitMs = this.options.timeoutMs?.(req.imageSize) ?? TIMEOUT_MS[req.imageSize];
    return withRetry(
      retryPolicies.realtime,
      async (attempt) => {
        this.options.onAttempt?.(attempt);
        try {
          return { ...(await this.once(req, body, overall)), attempts: attempt };
        } catch (err) {
          throw this.settled(StudioError.from(err), { total, signal, limitMs, tier: req.imageSize });
        }
      },
      { sleep: this.options.sleep },
    );
  }

  /** An attempt's error as reported: the tier's limit, a cancel and a gateway out of capacity end the generation. */
  private settled(
    error: StudioError,
    at: { total: AbortSignal; signal?: AbortSignal; limitMs: number; tier: Tier },
  ): StudioError {
    if (at.total.aborted)
      return new StudioError({
        code: 'NETWORK_TIMEOUT',
        message: `No image within ${Math.round(at.limitMs / 1000)} s, the limit for ${at.tier}.`,
        requestId: error.requestId,
        retryable: false,
        source: 'network',
      });
    if (at.signal?.aborted)
      return new StudioError({ code: 'STUDIO_CANCELLED', message: 'Cancelled.', requestId: error.requestId });
    if (isCapacityProblem(error))
      return new StudioError({
        ...error.toView(),
        code: 'STUDIO_CAPACITY',
        message: `The gateway has no capacity right now (${error.message}). This is not a problem with the prompt.`,
        retryable: false,
      });
    return error;
  }

  private async once(
    req: RealtimeRequest,
    body: unknown,
    signal: AbortSignal,
  ): Promise<Omit<RealtimeResult, 'attempts'>> {
    const ex = await gatewayFetch({
      baseUrl: this.account.baseUrl,
      path: `/v1beta/models/${encodeURIComponent(req.model)}:generateContent`,
      method: 'POST',
      body,
      auth: { header: 'x-imgvendor-api-key', value: this.account.key },
      secrets: this.secrets(),
      timeoutMs: 10 * 60_000,
      signal,
    });
    const { response, requestId, scrub } = ex;
    if (!response.ok) throw asPolicyRefusal(await readError(ex));
    // A success carries megabytes of image data: its text is scrubbed where it is kept (below),
    // not as a whole, so the image's bytes are never touched.
    const parsed = parseAs(answerSchema, await readRawText(ex));
    if (!parsed) throw badAnswer(ex);
    // The spec's success test: candidates, a part with non-empty inlineData.data, and bytes that decode.
    const candidate = parsed.candidates?.[0];
    const parts = candidate?.content?.parts ?? [];
    const modelText = scrub(
      parts
        .map((p) => p.text ?? '')
        .join('\n')
        .trim(),
    );
    const inline = parts.find((p) => p.inlineData?.data)?.inlineData;
    if (!inline?.data) {
      throw new StudioError({
        code: 'STUDIO_NO_IMAGE',
        message: `The model answered without an image (finishReason ${scrub(String(candidate?.finishReason ?? 'none'))})${modelText ? `: ${modelText}` : ''}`,
        httpStatus: response.status,
        requestId,
        retryable: true,
        source: 'gateway',
      });
    }
    const image = Buffer.from(inline.data, 'base64');
    const sniffed = sniffImageType(image.subarray(0, 16));
    if (!sniffed) {
      throw new StudioError({
        code: 'STUDIO_NO_IMAGE',
        message: 'The image in the answer does not decode.',
        httpStatus: response.status,
        requestId,
        retryable: true,
        source: 'gateway',
      });
    }
    // The bytes say what the image is: the declared type, where it differs, would save a JPEG as
    // .png, which some viewers and tools then refuse to open.
    const mime = sniffed;
    return {
      mime,
      extension: extensionOf(mime),
      image,
      text: modelText,
      modelVersion: parsed.modelVersion === undefined ? undefined : scrub(String(parsed.modelVersion)),
      finishReason: candidate?.finishReason === undefined ? undefined : scrub(String(candidate.finishReason)),
      requestId,
    };
  }
}
