import { GoogleGenAI } from '@google/genai';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ALICE, FLASH, PRO, call, pngOf, startSandbox } from './harness';

const sandbox = await startSandbox();

function generate(
  model: string,
  body: unknown,
  headers: Record<string, string> = { 'x-imgvendor-api-key': ALICE },
) {
  return call(sandbox.url, 'POST', `/v1beta/models/${model}:generateContent`, { body, headers });
}

const textOnly = (text: string, imageConfig: Record<string, unknown> = {}) => ({
  contents: [{ role: 'user', parts: [{ text }] }],
  generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig },
});

function imageOf(answer: { body: any }): Buffer {
  const part = answer.body.candidates[0].content.parts.find((p: any) => p.inlineData);
  return Buffer.from(part.inlineData.data, 'base64');
}

describe('the official SDK against the sandbox', () => {
  it('@google/genai generates an image that decodes', async () => {
    const ai = new GoogleGenAI({
      apiKey: 'unused-the-gateway-reads-its-own-header',
      httpOptions: { baseUrl: sandbox.url, headers: { 'x-imgvendor-api-key': ALICE } },
    });
    const response = await ai.models.generateContent({
      model: FLASH,
      contents: 'A lighthouse at dusk, 黄昏的灯塔',
      config: {
        responseModalities: ['TEXT', 'IMAGE'],
        imageConfig: { aspectRatio: '16:9', imageSize: '1K' },
      },
    });
    const parts = response.candidates?.[0]?.content?.parts ?? [];
    expect(parts.some((p) => p.text)).toBe(true);
    const image = parts.find((p) => p.inlineData?.data)?.inlineData;
    expect(image?.mimeType).toBe('image/png');
    const meta = await sharp(Buffer.from(image!.data!, 'base64')).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1344, height: 768 });
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.usageMetadata?.totalTokenCount).toBeGreaterThan(0);
  });

  it('@google/genai edits an image passed as inlineData', async () => {
    const ai = new GoogleGenAI({
      apiKey: 'x',
      httpOptions: { baseUrl: sandbox.url, headers: { authorization: `Bearer ${ALICE}` } },
    });
    const input = await pngOf(120, 120, '#00ff00');
    const response = await ai.models.generateContent({
      model: PRO,
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Keep the square, make the background blue' },
            { inlineData: { mimeType: 'image/png', data: input.toString('base64') } },
          ],
        },
      ],
      config: { responseModalities: ['TEXT', 'IMAGE'] },
    });
    const data = response.candidates?.[0]?.content?.parts?.find((p) => p.inlineData)?.inlineData?.data;
    expect((await sharp(Buffer.from(data!, 'base64')).metadata()).format).toBe('png');
  });
});

describe('generateContent', () => {
  it('answers text and image parts, usageMetadata and modelVersion for an aliased id', async () => {
    const answer = await generate('imgvendor-3-pro-image-preview', textOnly('a cat'));
    expect(answer.status).toBe(200);
    const candidate = answer.body.candidates[0];
    expect(candidate.content.role).toBe('model');
    expect(candidate.content.parts[0].text).toEqual(expect.any(String));
    expect(candidate.content.parts[1].inlineData.mimeType).toBe('image/png');
    expect(candidate).toMatchObject({ finishReason: 'STOP', index: 0 });
    expect(answer.body.usageMetadata).toMatchObject({
      promptTokenCount: expect.any(Number),
      candidatesTokenCount: expect.any(Number),
      totalTokenCount: expect.any(Number),
      candidatesTokensDetails: expect.arrayContaining([
        { modality: 'IMAGE', tokenCount: expect.any(Number) },
      ]),
    });
    expect(answer.body.modelVersion).toBe('imgvendor-3-pro-image');
  });

  it('sizes the image from tier and ratio', async () => {
    for (const [tier, ratio, width, height] of [
      ['1K', '1:1', 1024, 1024],
      ['1K', '9:16', 768, 1344],
      ['2K', '1:1', 2048, 2048],
      ['1K', '8:1', 2896, 368],
    ] as const) {
      const answer = await generate(FLASH, textOnly('sized', { imageSize: tier, aspectRatio: ratio }));
      expect(answer.status).toBe(200);
      const meta = await sharp(imageOf(answer)).metadata();
      expect([tier, ratio, meta.width, meta.height]).toEqual([tier, ratio, width, height]);
    }
  });

  it('validates the ratio per model: a Flash-only ratio sent to a Pro model is 400 INVALID_ARGUMENT', async () => {
    expect((await generate(FLASH, textOnly('wide', { aspectRatio: '4:1' }))).status).toBe(200);
    for (const model of [PRO, 'imgvendor-3-pro-image-preview']) {
      const answer = await generate(model, textOnly('wide', { aspectRatio: '4:1' }));
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      expect(answer.body.error.message).toContain('generationConfig.imageConfig.aspectRatio');
    }
    for (const ratio of ['1.5', '1024x768', '3:7']) {
      expect((await generate(FLASH, textOnly('odd', { aspectRatio: ratio }))).status).toBe(400);
    }
  });

  it('requires IMAGE in responseModalities and an uppercase tier', async () => {
    const noImage = await generate(FLASH, {
      contents: textOnly('x').contents,
      generationConfig: { responseModalities: ['TEXT'] },
    });
    expect([noImage.status, noImage.body.error.status]).toEqual([400, 'INVALID_ARGUMENT']);
    const lower = await generate(FLASH, textOnly('x', { imageSize: '1k' }));
    expect([lower.status, lower.body.error.status]).toEqual([400, 'INVALID_ARGUMENT']);
    const missing = await generate(FLASH, { contents: textOnly('x').contents });
    expect(missing.status).toBe(400);
  });

  it('an unknown model is 404 NOT_FOUND in the native shape', async () => {
    const answer = await generate('imgvendor-9-ultra-image', textOnly('x'));
    expect([answer.status, answer.body.error.code, answer.body.error.status]).toEqual([
      404,
      404,
      'NOT_FOUND',
    ]);
  });

  it('a prompt marked [noimage] gets HTTP 200 with text and no image', async () => {
    const answer = await generate(FLASH, textOnly('please [noimage]'));
    expect(answer.status).toBe(200);
    const parts = answer.body.candidates[0].content.parts;
    expect(parts.some((p: any) => p.inlineData)).toBe(false);
    expect(parts[0].text).toEqual(expect.any(String));
    expect(answer.body.candidates[0].finishReason).not.toBe('STOP');
  });

  it('a policy refusal is 400, and a poor balance is 402', async () => {
    const blocked = await generate(FLASH, textOnly('something [blocked]'));
    expect([blocked.status, blocked.body.error.status]).toEqual([400, 'INVALID_ARGUMENT']);
    const poor = await generate(FLASH, textOnly('x'), { 'x-imgvendor-api-key': 'sk-sandbox-poor' });
    expect(poor.status).toBe(402);
    expect(poor.body.error.code).toBe(402);
  });
});

describe('realtime authentication', () => {
  it('reads the key in priority order: native header, Bearer, x-api-key, ?key=', async () => {
    const path = `/v1beta/models/${FLASH}`;
    const get = (headers: Record<string, string>, query = '') =>
      call(sandbox.url, 'GET', path + query, { headers });
    expect((await get({ 'x-imgvendor-api-key': ALICE, authorization: 'Bearer wrong' })).status).toBe(200);
    expect((await get({ 'x-imgvendor-api-key': 'wrong', authorization: `Bearer ${ALICE}` })).status).toBe(
      401,
    );
    expect((await get({ authorization: `Bearer ${ALICE}`, 'x-api-key': 'wrong' })).status).toBe(200);
    expect((await get({ 'x-api-key': ALICE }, '?key=wrong')).status).toBe(200);
    expect((await get({}, `?key=${ALICE}`)).status).toBe(200);
  });

  it('refuses ?api_key= with 400, and a missing key with the UNAUTHENTICATED shape', async () => {
    const query = await call(sandbox.url, 'GET', `/v1beta/models?api_key=${ALICE}`);
    expect([query.status, query.body.error.status]).toEqual([400, 'INVALID_ARGUMENT']);
    const missing = await call(sandbox.url, 'GET', '/v1beta/models');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      error: { code: 401, message: expect.any(String), status: 'UNAUTHENTICATED' },
    });
  });

  it('a key of a non-native group is refused with 400', async () => {
    const other = await startSandbox({
      config: {
        accounts: [
          {
            key: 'sk-openai-group',
            name: 'o',
            balance: 10,
            platform: 'openai',
            batch: false,
            groupMultiplier: 1,
          },
        ],
      },
    });
    const answer = await call(other.url, 'GET', '/v1beta/models', {
      headers: { 'x-imgvendor-api-key': 'sk-openai-group' },
    });
    expect(answer.status).toBe(400);
  });
});

describe('model endpoints', () => {
  it('lists native models, one model, and the OpenAI-compatible list with Bearer', async () => {
    const list = await call(sandbox.url, 'GET', '/v1beta/models', {
      headers: { 'x-imgvendor-api-key': ALICE },
    });
    expect(list.body.models.map((m: any) => m.name)).toContain(`models/${FLASH}`);
    const one = await call(sandbox.url, 'GET', `/v1beta/models/${PRO}`, {
      headers: { 'x-imgvendor-api-key': ALICE },
    });
    expect(one.body).toMatchObject({
      name: `models/${PRO}`,
      supportedGenerationMethods: expect.arrayContaining(['generateContent']),
    });
    const openai = await call(sandbox.url, 'GET', '/v1/models', { key: ALICE });
    expect(openai.body.object).toBe('list');
    expect(openai.body.data.map((m: any) => m.id)).toContain(FLASH);
    expect((await call(sandbox.url, 'GET', '/v1/models', { headers: { 'x-api-key': ALICE } })).status).toBe(
      401,
    );
  });

  it('streams with alt=sse: a text chunk, then the image with finishReason', async () => {
    const res = await fetch(`${sandbox.url}/v1beta/models/${FLASH}:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-imgvendor-api-key': ALICE },
      body: JSON.stringify(textOnly('streamed')),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = (await res.text())
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((e) => JSON.parse(e.replace(/^data: /, '')));
    expect(events).toHaveLength(2);
    expect(events[0].candidates[0].content.parts[0].text).toEqual(expect.any(String));
    expect(events[1].candidates[0].content.parts[0].inlineData.mimeType).toBe('image/png');
    expect(events[1].candidates[0].finishReason).toBe('STOP');
  });
});

describe('realtime faults', () => {
  it('answers injected failures in the native shape, and noimage as a 200 without an image', async () => {
    const faulty = await startSandbox();
    for (const [spec, status, word] of [
      ['429=#1', 429, 'RESOURCE_EXHAUSTED'],
      ['500=#1', 500, 'INTERNAL'],
      ['503=#1', 503, 'UNAVAILABLE'],
      ['504=#1', 504, 'DEADLINE_EXCEEDED'],
      ['capacity=#1', 503, 'UNAVAILABLE'],
    ] as const) {
      faulty.faults.set(spec);
      const answer = await call(faulty.url, 'POST', `/v1beta/models/${FLASH}:generateContent`, {
        headers: { 'x-imgvendor-api-key': ALICE },
        body: textOnly('x'),
      });
      expect([spec, answer.status, answer.body.error.status]).toEqual([spec, status, word]);
      if (spec.startsWith('capacity')) expect(answer.body.error.message).toMatch(/cooling down/);
    }
    faulty.faults.set('noimage=#1');
    const empty = await call(faulty.url, 'POST', `/v1beta/models/${FLASH}:generateContent`, {
      headers: { 'x-imgvendor-api-key': ALICE },
      body: textOnly('x'),
    });
    expect(empty.status).toBe(200);
    expect(empty.body.candidates[0].content.parts.some((p: any) => p.inlineData)).toBe(false);
    faulty.faults.set('reset=#1');
    await expect(
      call(faulty.url, 'POST', `/v1beta/models/${FLASH}:generateContent`, {
        headers: { 'x-imgvendor-api-key': ALICE },
        body: textOnly('x'),
      }),
    ).rejects.toThrow();
  });
});
