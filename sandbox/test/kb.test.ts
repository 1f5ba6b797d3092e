import { describe, expect, it } from 'vitest';
import { call, startSandbox } from './harness';

const KEY = 'kb-sandbox';

function kb(base: string, route: 'pushData' | 'appKbSearch', body: unknown, key = KEY) {
  return call(base, 'POST', `/api/openapi/kb/${route}`, { body, headers: key ? { apikey: key } : {} });
}

describe('pushData', () => {
  it('index mode stores each row and reports the inserted count', async () => {
    const sandbox = await startSandbox();
    const answer = await kb(sandbox.url, 'pushData', {
      kbId: 'kb-docs',
      mode: 'index',
      data: [
        { q: 'What is our house watercolor style?', a: 'Soft edges, muted palette, visible paper grain.' },
        { q: '品牌主色是什么？', a: '深海蓝与暖橙色。' },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ code: 200, statusText: expect.any(String), data: 2 });
    expect(answer.body.message).toContain('2');
    expect(sandbox.inspect().kbRecords).toEqual({ 'kb-docs': 2 });
  });

  it('qa mode splits q into pairs with the local splitter, and ignores a', async () => {
    const sandbox = await startSandbox();
    const material =
      'Our logo is always on white. It never sits on photos.\n\nHeadlines use the display face. Body text uses the text face.\n\n插画使用扁平风格。避免渐变。';
    const answer = await kb(sandbox.url, 'pushData', {
      kbId: 'kb-styles',
      mode: 'qa',
      prompt: 'Brand guide',
      data: [{ q: material, a: '' }],
    });
    expect(answer.body).toMatchObject({ code: 200, data: 3 });
    const search = await kb(sandbox.url, 'appKbSearch', {
      appId: 'app-sandbox',
      similarity: 0.1,
      limit: 5,
      prompts: [{ obj: 'Human', value: 'logo on white' }],
    });
    expect(search.body.data.rawSearch[0].a).toContain('Our logo is always on white');
    expect(search.body.data.rawSearch[0].q).toMatch(/logo/i);
  });

  it('skips rows over the token limits, counted with a BPE tokenizer', async () => {
    const sandbox = await startSandbox();
    // "hello " is one cl100k token: 1500 + 1501 tokens is over 3000 in index mode.
    const over = { q: 'hello '.repeat(1500), a: 'hello '.repeat(1501) };
    const fits = { q: 'hello '.repeat(1500), a: 'hello '.repeat(1400) };
    const answer = await kb(sandbox.url, 'pushData', { kbId: 'kb-docs', mode: 'index', data: [over, fits] });
    expect(answer.body.data).toBe(1);
    const qa = await kb(sandbox.url, 'pushData', {
      kbId: 'kb-docs',
      mode: 'qa',
      data: [{ q: 'hello '.repeat(3301) }],
    });
    expect(qa.body.data).toBe(0);
  });

  it('answers a bad key, a foreign kb and bad params with HTTP 200 and an error code in the body', async () => {
    const sandbox = await startSandbox();
    const data = [{ q: 'q', a: 'a' }];
    const wrong = await kb(sandbox.url, 'pushData', { kbId: 'kb-docs', mode: 'index', data }, 'kb-wrong');
    expect(wrong.status).toBe(200);
    expect(wrong.body.code).not.toBe(200);
    expect(wrong.body.statusText).toBe('unAuthApiKey');
    const missing = await kb(sandbox.url, 'pushData', { kbId: 'kb-docs', mode: 'index', data }, '');
    expect([missing.status, missing.body.statusText]).toEqual([200, 'unAuthApiKey']);
    const foreign = await kb(sandbox.url, 'pushData', { kbId: 'kb-other', mode: 'index', data });
    expect([foreign.status, foreign.body.statusText]).toEqual([200, 'unAuthKb']);
    const badMode = await kb(sandbox.url, 'pushData', { kbId: 'kb-docs', mode: 'chunks', data });
    expect(badMode.status).toBe(200);
    expect(badMode.body.code).not.toBe(200);
    expect(sandbox.inspect().kbRecords).toEqual({});
  });
});

describe('appKbSearch', () => {
  it('searches only the last prompt, over the kbs attached to the app, with threshold and limit', async () => {
    const sandbox = await startSandbox();
    await kb(sandbox.url, 'pushData', {
      kbId: 'kb-docs',
      mode: 'index',
      data: [
        { q: 'red fox in the snow', a: 'winter animal series' },
        { q: 'blue whale in the deep ocean', a: 'marine series' },
        { q: '雪中的红狐狸', a: '冬季动物系列' },
      ],
    });
    await kb(sandbox.url, 'pushData', {
      kbId: 'kb-styles',
      mode: 'index',
      data: [{ q: 'fox logo style', a: 'flat, orange' }],
    });
    const search = (value: string, similarity = 0.2, limit = 5, earlier: string[] = []) =>
      kb(sandbox.url, 'appKbSearch', {
        appId: 'app-sandbox',
        similarity,
        limit,
        prompts: [...earlier.map((v) => ({ obj: 'Human', value: v })), { obj: 'Human', value }],
      });

    const fox = await search('fox in snow');
    expect(fox.status).toBe(200);
    expect(fox.body.code).toBe(200);
    expect(fox.body.data.code).toBe(200);
    const hits = fox.body.data.rawSearch;
    expect(hits[0]).toEqual({ id: expect.any(String), q: 'red fox in the snow', a: 'winter animal series' });
    expect(hits.some((h: any) => h.q === 'fox logo style')).toBe(true);
    expect(hits.some((h: any) => h.q.includes('whale'))).toBe(false);
    expect(fox.body.data.userSystemPrompt).toEqual({ obj: 'System', value: expect.any(String) });
    expect(fox.body.data.quotePrompt.obj).toBe('System');
    expect(fox.body.data.quotePrompt.value).toContain('red fox in the snow');

    expect((await search('fox in snow', 0.2, 1)).body.data.rawSearch).toHaveLength(1);
    expect((await search('fox in snow', 0.99)).body.data.rawSearch).toEqual([]);
    const chinese = await search('红狐狸');
    expect(chinese.body.data.rawSearch[0].q).toBe('雪中的红狐狸');
    const lastOnly = await search('deep ocean whale', 0.2, 5, ['fox in snow']);
    expect(lastOnly.body.data.rawSearch[0].q).toContain('whale');
  });

  it('answers an unknown app and bad params with an error code in a 200 body', async () => {
    const sandbox = await startSandbox();
    const app = await kb(sandbox.url, 'appKbSearch', {
      appId: 'app-x',
      similarity: 0.5,
      limit: 3,
      prompts: [{ obj: 'Human', value: 'x' }],
    });
    expect([app.status, app.body.statusText]).toEqual([200, 'unAuthModel']);
    const sim = await kb(sandbox.url, 'appKbSearch', {
      appId: 'app-sandbox',
      similarity: 2,
      limit: 3,
      prompts: [{ obj: 'Human', value: 'x' }],
    });
    expect(sim.status).toBe(200);
    expect(sim.body.code).not.toBe(200);
    const empty = await kb(sandbox.url, 'appKbSearch', { appId: 'app-sandbox', prompts: [] });
    expect(empty.body.code).not.toBe(200);
  });
});
