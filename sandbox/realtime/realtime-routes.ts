import { randomBytes } from 'node:crypto';
import { COMMON_RATIOS, EXTENDED_RATIOS, findModel, type SandboxConfig, type SandboxModel } from '../config';
import {
  BodyTooLarge,
  BodyUnreadable,
  InvalidJson,
  bearer,
  header,
  parseJson,
  readBody,
  sendJson,
  type Exchange,
} from '../exchange';
import { renderImage, sizeFor, sniffImage } from '../image-render';
import { echoRejectedKey } from '../key-echo';
import type { SandboxStore } from '../store';

/** An answer in the vendor-native shape: `{error: {code, message, status}}`. */
export class NativeError extends Error {
  constructor(
    readonly code: number,
    readonly status: string,
    message: string,
  ) {
    super(message);
  }
  body(): { error: { code: number; message: string; status: string } } {
    return { error: { code: this.code, message: this.message, status: this.status } };
  }
}

const invalid = (message: string) => new NativeError(400, 'INVALID_ARGUMENT', message);
const TIERS = ['1K', '2K', '4K'] as const;
type Tier = (typeof TIERS)[number];

/** `[noimage]` in a prompt gets a 200 without an image, `[blocked]` a policy refusal: chosen failures for tests. */
const NO_IMAGE = /\[noimage\]/i;
const BLOCKED = /\[blocked\]/i;

interface InputImage {
  mime: string;
  data: Buffer;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class RealtimeRoutes {
  constructor(
    private config: SandboxConfig,
    private store: SandboxStore,
  ) {}

  async handle(ex: Exchange): Promise<void> {
    try {
      await this.route(ex);
    } catch (err) {
      if (err instanceof NativeError) return sendJson(ex, err.code, err.body());
      throw err;
    }
  }

  /** The key, read in the spec's priority order. */
  private authenticate(ex: Exchange, allowQuery: boolean): string {
    if (ex.url.searchParams.has('api_key')) {
      throw invalid(
        'the query parameter api_key is not accepted; send the key in the x-imgvendor-api-key header',
      );
    }
    const key =
      header(ex.req, 'x-imgvendor-api-key') ??
      bearer(ex.req) ??
      header(ex.req, 'x-api-key') ??
      (allowQuery ? ex.url.searchParams.get('key') || undefined : undefined);
    if (!key)
      throw new NativeError(
        401,
        'UNAUTHENTICATED',
        'API key is missing; send it in the x-imgvendor-api-key header',
      );
    const account = this.config.accounts.find((a) => a.key === key);
    if (!account)
      throw new NativeError(
        401,
        'UNAUTHENTICATED',
        this.config.echoKeyInErrors
          ? `API key ${echoRejectedKey(ex, key)} is invalid or disabled`
          : 'API key is invalid or disabled',
      );
    if (account.platform !== 'native') {
      throw new NativeError(400, 'FAILED_PRECONDITION', "this key's group is not on the native platform");
    }
    return key;
  }

  private async route(ex: Exchange): Promise<void> {
    const path = ex.url.pathname;
    if (path === '/v1/models') {
      if (ex.method !== 'GET')
        throw new NativeError(405, 'INVALID_ARGUMENT', `${ex.method} is not allowed here`);
      const key = bearer(ex.req);
      if (!key || !this.config.accounts.some((a) => a.key === key)) {
        throw new NativeError(401, 'UNAUTHENTICATED', 'send a valid key as Authorization: Bearer <key>');
      }
      return sendJson(ex, 200, {
        object: 'list',
        data: this.config.models.map((m) => ({
          id: m.id,
          object: 'model',
          created: 1767225600,
          owned_by: 'imgvendor',
        })),
      });
    }
    const key = this.authenticate(ex, true);
    if (path === '/v1beta/models' || path === '/v1beta/models/') {
      if (ex.method !== 'GET')
        throw new NativeError(405, 'INVALID_ARGUMENT', `${ex.method} is not allowed here`);
      return sendJson(ex, 200, { models: this.config.models.map((m) => this.modelInfo(m)) });
    }
    if (!path.startsWith('/v1beta/models/'))
      throw new NativeError(404, 'NOT_FOUND', `no endpoint at ${path}`);
    let rest: string;
    try {
      rest = decodeURIComponent(path.slice('/v1beta/models/'.length));
    } catch {
      throw invalid('the model path is not properly percent-encoded');
    }
    const colon = rest.lastIndexOf(':');
    const modelId = colon >= 0 ? rest.slice(0, colon) : rest;
    const method = colon >= 0 ? rest.slice(colon + 1) : undefined;
    const model = findModel(this.config, modelId.replace(/^models\//, ''));
    if (!model)
      throw new NativeError(404, 'NOT_FOUND', `models/${modelId} is not found or not available to this key`);

    if (method === undefined && ex.method === 'GET') return sendJson(ex, 200, this.modelInfo(model));
    if (ex.method === 'POST' && (method === 'generateContent' || method === 'streamGenerateContent')) {
      const response = await this.generate(ex, key, model);
      if (method === 'generateContent') return sendJson(ex, 200, response);
      return this.sendStream(ex, response);
    }
    throw new NativeError(404, 'NOT_FOUND', `no method ${ex.method} ${method ?? ''} on models/${model.id}`);
  }

  private modelInfo(model: SandboxModel): Record<string, unknown> {
    return {
      name: `models/${model.id}`,
      version: model.version ?? model.id,
      displayName: model.id,
      description: `Image model ${model.id} (sandbox)`,
      inputTokenLimit: 32768,
      outputTokenLimit: 32768,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
    };
  }

  private async generate(ex: Exchange, key: string, model: SandboxModel): Promise<Record<string, unknown>> {
    let body: unknown;
    try {
      body = parseJson(await readBody(ex.req, this.config.limits.maxBodyBytes));
    } catch (err) {
      if (err instanceof BodyTooLarge)
        throw new NativeError(413, 'INVALID_ARGUMENT', `request body too large: ${err.message}`);
      if (err instanceof InvalidJson || err instanceof BodyUnreadable) throw invalid(err.message);
      throw err;
    }
    if (!isRecord(body)) throw invalid('the body must be a JSON object');
    const { prompt, images } = this.readContents(body.contents);
    const { tier, ratio } = this.readGenerationConfig(body.generationConfig, model);

    if (ex.fault === 'capacity') {
      throw new NativeError(
        503,
        'UNAVAILABLE',
        'all upstream tokens are invalid, cooling down or locked; no account is available',
      );
    }
    if (BLOCKED.test(prompt)) throw invalid('the request was blocked by the content policy');

    const account = this.store.account(key);
    const price = model.realtimePrice[tier];
    if (account.balance - account.held < price) {
      throw new NativeError(402, 'FAILED_PRECONDITION', 'insufficient balance for this request');
    }

    const promptTokens = Math.ceil(Buffer.byteLength(prompt) / 4) + images.length * 258;
    const usage = (imageTokens: number) => ({
      promptTokenCount: promptTokens,
      candidatesTokenCount: imageTokens + 12,
      totalTokenCount: promptTokens + imageTokens + 12,
      candidatesTokensDetails: [
        { modality: 'TEXT', tokenCount: 12 },
        ...(imageTokens ? [{ modality: 'IMAGE', tokenCount: imageTokens }] : []),
      ],
    });
    const common = {
      modelVersion: model.version ?? model.id,
      responseId: randomBytes(12).toString('base64url'),
    };

    if (ex.fault === 'noimage' || NO_IMAGE.test(prompt)) {
      return {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ text: 'I could not produce an image for this request. Try rephrasing it.' }],
            },
            finishReason: 'NO_IMAGE',
            index: 0,
          },
        ],
        usageMetadata: usage(0),
        ...common,
      };
    }

    const { width, height } = sizeFor(tier, ratio);
    const image = await renderImage({
      prompt,
      label: `${model.id} ${tier} ${ratio ?? 'auto'} ${width}x${height}`,
      variant: `${tier}/${ratio ?? ''}/${images.map((i) => i.data.length).join(',')}`,
      width,
      height,
      mime: 'image/png',
      thumbnails: images.map((i) => i.data),
    });
    account.balance = Math.round((account.balance - price) * 1e6) / 1e6;
    account.realtimeImages += 1;
    this.store.changed();
    return {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                text: images.length
                  ? `Here is the edited image: ${prompt.slice(0, 80)}`
                  : `Here is your image: ${prompt.slice(0, 80)}`,
              },
              { inlineData: { mimeType: 'image/png', data: image.toString('base64') } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: usage(tier === '4K' ? 2000 : 1290),
      ...common,
    };
  }

  /** The instruction and input images of the last user message. */
  private readContents(contents: unknown): { prompt: string; images: InputImage[] } {
    if (!Array.isArray(contents) || contents.length === 0)
      throw invalid('contents must hold at least one message');
    const userTurns = contents.filter((c) => isRecord(c) && (c.role === undefined || c.role === 'user'));
    const last = userTurns[userTurns.length - 1];
    if (!isRecord(last) || !Array.isArray(last.parts) || last.parts.length === 0) {
      throw invalid('contents[].parts must hold the prompt text');
    }
    const texts: string[] = [];
    const images: InputImage[] = [];
    last.parts.forEach((part: unknown, i: number) => {
      if (!isRecord(part)) throw invalid(`contents[].parts[${i}] must be an object`);
      if (typeof part.text === 'string') texts.push(part.text);
      else if (isRecord(part.inlineData)) {
        const { mimeType, data } = part.inlineData;
        if (typeof mimeType !== 'string' || typeof data !== 'string' || data === '') {
          throw invalid(`contents[].parts[${i}].inlineData needs mimeType and data`);
        }
        if (data.startsWith('data:'))
          throw invalid(`contents[].parts[${i}].inlineData.data must be raw base64`);
        const bytes = Buffer.from(data, 'base64');
        const actual = sniffImage(bytes);
        if (!actual) throw invalid(`contents[].parts[${i}].inlineData is not a PNG, JPEG or WebP image`);
        images.push({ mime: actual, data: bytes });
      } else {
        throw invalid(`contents[].parts[${i}] must have text or inlineData`);
      }
    });
    const prompt = texts.join('\n').trim();
    if (!prompt) throw invalid('contents[].parts[].text is required: the prompt or the editing instruction');
    return { prompt, images };
  }

  private readGenerationConfig(raw: unknown, model: SandboxModel): { tier: Tier; ratio?: string } {
    if (!isRecord(raw))
      throw invalid('generationConfig is required, with responseModalities including IMAGE');
    const modalities = raw.responseModalities;
    if (!Array.isArray(modalities) || !modalities.some((m) => String(m).toUpperCase() === 'IMAGE')) {
      throw invalid('generationConfig.responseModalities must include IMAGE');
    }
    const imageConfig = raw.imageConfig === undefined ? {} : raw.imageConfig;
    if (!isRecord(imageConfig)) throw invalid('generationConfig.imageConfig must be an object');
    const size = imageConfig.imageSize ?? '1K';
    if (!TIERS.includes(size as Tier)) {
      throw invalid(
        `generationConfig.imageConfig.imageSize has an unsupported value "${String(size)}"; use 1K, 2K or 4K`,
      );
    }
    const ratio = imageConfig.aspectRatio;
    if (ratio !== undefined) {
      const allowed = model.extendedRatios ? [...COMMON_RATIOS, ...EXTENDED_RATIOS] : COMMON_RATIOS;
      if (typeof ratio !== 'string' || !allowed.includes(ratio)) {
        throw invalid(
          `generationConfig.imageConfig.aspectRatio has an unsupported value "${String(ratio)}" for ${model.id}`,
        );
      }
    }
    return { tier: size as Tier, ratio: ratio as string | undefined };
  }

  /** Minimal server-sent events: the text part, then the image with the usage, as two chunks. */
  private sendStream(ex: Exchange, response: Record<string, unknown>): void {
    const sse = ex.url.searchParams.get('alt') === 'sse';
    const candidate = (response.candidates as { content: { parts: unknown[] } }[])[0]!;
    const chunks = candidate.content.parts.map((part, i, all) => ({
      candidates: [
        {
          content: { role: 'model', parts: [part] },
          index: 0,
          ...(i === all.length - 1
            ? { finishReason: (candidate as Record<string, unknown>).finishReason }
            : {}),
        },
      ],
      ...(i === all.length - 1 ? { usageMetadata: response.usageMetadata } : {}),
      modelVersion: response.modelVersion,
      responseId: response.responseId,
    }));
    if (!sse) return sendJson(ex, 200, chunks);
    ex.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of chunks) ex.res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    ex.res.end();
  }
}
