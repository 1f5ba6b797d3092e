import { describe, expect, it } from 'vitest';
import { call, FLASH, startSandbox } from './harness';

/** A key whose URL-encoded and base64 forms differ from it, so each form is told apart. */
const KEY = 'sk-wrong/key+with=signs-0d9e';
const FORMS = {
  raw: KEY,
  url: encodeURIComponent(KEY),
  base64: Buffer.from(KEY).toString('base64'),
  base64url: Buffer.from(KEY).toString('base64url'),
};

/** The refusal codes; the knowledge base answers HTTP 200 with its code in the body. */
const REFUSED = /INVALID_API_KEY|UNAUTHENTICATED|unAuthApiKey/;

const echoing = await startSandbox({ config: { echoKeyInErrors: true } });
const quiet = await startSandbox();

/** A refused call to each of the three APIs, with the key where that API takes it. */
function refusedCalls(base: string) {
  return {
    batch: () => call(base, 'GET', '/v1/images/batches', { key: KEY }),
    realtime: () =>
      call(base, 'POST', `/v1beta/models/${FLASH}:generateContent`, {
        headers: { 'x-imgvendor-api-key': KEY },
        body: { contents: [{ parts: [{ text: 'x' }] }] },
      }),
    kb: () =>
      call(base, 'POST', '/api/openapi/kb/pushData', {
        headers: { apikey: KEY },
        body: { kbId: 'kb-docs', mode: 'index', data: [] },
      }),
  };
}

describe('echoKeyInErrors', () => {
  it.each(['batch', 'realtime', 'kb'] as const)(
    'makes a %s error repeat the key as sent, URL-encoded, base64 and base64url, and in headers',
    async (api) => {
      const answer = await refusedCalls(echoing.url)[api]();
      expect(answer.text).toMatch(REFUSED);
      for (const [form, text] of Object.entries(FORMS)) expect(answer.text, form).toContain(text);
      expect(answer.headers.get('x-debug-key')).toBe(KEY);
      expect(answer.headers.get('x-request-id')).toContain(FORMS.base64url);
    },
  );

  it.each(['batch', 'realtime', 'kb'] as const)(
    'is off by default: a %s error keeps the key to itself',
    async (api) => {
      const answer = await refusedCalls(quiet.url)[api]();
      expect(answer.text).toMatch(REFUSED);
      const everything = `${answer.text}\n${[...answer.headers].join('\n')}`;
      for (const [form, text] of Object.entries(FORMS)) expect(everything, form).not.toContain(text);
    },
  );
});
