import { strToU8, zipSync } from 'fflate';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchClient } from '../services/gateway/batch-client';
import { extractZip } from './helpers/zip-on-disk';
import { redact } from '../services/secrets/secret-store';
import { call, startServices, waitUntil } from './helpers/studio-fixture';
import { echoedKeyForms as keyForms } from '../../sandbox/key-echo';

/**
 * Keys the sandbox rejects and repeats in its errors, as some deployed gateways do. Their "/", "+"
 * and "=" make the URL-encoded form differ from the key, so each form is checked on its own.
 */
const WRONG_GATEWAY_KEY = 'sk-echoed/wrong+5d1e=8f3a9b7c';
const WRONG_KB_KEY = 'kb-echoed/wrong+2c6a=4e9f0d1b';
/** The sandbox profile's working key. */
const REAL_KEY = 'sk-sandbox-alice';
const KEYS = [WRONG_GATEWAY_KEY, WRONG_KB_KEY, REAL_KEY];

/** Every file the studio wrote, but the key file itself and the gateway's own state. */
function studioFiles(dataDir: string): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = relative(dataDir, path);
      // The in-process sandbox is the gateway, not the studio: it keeps its users' keys by design.
      if (name === 'sandbox' || name === 'secrets.json') continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push({ name, text: readFileSync(path).toString('latin1') });
    }
  };
  walk(dataDir);
  return out;
}

function expectNoKey(where: string, text: string): void {
  for (const key of KEYS) {
    for (const [how, form] of keyForms(key)) expect(text, `${where} holds ${key} ${how}`).not.toContain(form);
  }
}

describe('a gateway that repeats the key in its errors', () => {
  it('never gets a key into answers, events, files or output', async () => {
    const printed: string[] = [];
    const writes = [process.stdout, process.stderr].map((stream) => {
      const original = stream.write.bind(stream);
      stream.write = ((chunk: unknown, ...rest: unknown[]) => {
        printed.push(String(chunk));
        return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
      return () => (stream.write = original);
    });
    const services = await startServices({
      sandbox: { config: { echoKeyInErrors: true } },
      realtimeClient: { sleep: async () => undefined },
    });
    const events: string[] = [];
    services.events.subscribe((event, payload) => events.push(`${event} ${JSON.stringify(payload)}`));
    const answers: string[] = [];
    const ask = async (method: string, input: unknown = {}) => {
      const answer = await services.dispatch(method, input);
      answers.push(JSON.stringify(answer));
      return answer;
    };
    try {
      const profiles = await call(services, 'profiles.list');
      const profile = await call(services, 'profiles.save', {
        name: 'Echoing gateway',
        baseUrl: profiles[0].baseUrl,
        kbBaseUrl: profiles[0].baseUrl,
        defaultAppId: 'app-sandbox',
        defaultKbId: 'kb-docs',
        gatewayKey: WRONG_GATEWAY_KEY,
        kbKey: WRONG_KB_KEY,
      });
      await ask('profiles.activate', { id: profile.id });

      // The sandbox does repeat the key: the gateway's text is what must be scrubbed.
      const raw = await fetch(
        `${profiles[0].baseUrl}/v1beta/models/imgvendor-3.1-flash-image:generateContent`,
        {
          method: 'POST',
          headers: { 'x-imgvendor-api-key': WRONG_GATEWAY_KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }] }),
        },
      );
      const rawText = await raw.text();
      for (const [how, form] of keyForms(WRONG_GATEWAY_KEY)) expect(rawText, how).toContain(form);
      expect(raw.headers.get('x-debug-key')).toBe(WRONG_GATEWAY_KEY);
      expect(raw.headers.get('x-request-id')).toContain(Buffer.from(WRONG_GATEWAY_KEY).toString('base64url'));

      const connection = await ask('connection.check');
      expect(JSON.stringify(connection)).toContain('INVALID_API_KEY');
      const job = await call(services, 'realtime.generate', {
        prompt: 'a lighthouse',
        model: 'imgvendor-3.1-flash-image',
      });
      const failed = await waitUntil(
        async () => ((await ask('realtime.jobs')) as { value: { id: string; state: string }[] }).value,
        (jobs) => jobs.find((j) => j.id === job.id)?.state === 'failed',
      );
      expect(JSON.stringify(failed)).toContain('UNAUTHENTICATED');
      await ask('kb.push', { rows: [{ q: 'What is a mug?', a: 'A cup.' }], mode: 'index' });
      const pushes = await waitUntil(
        async () => ((await ask('kb.pushes')) as { value: { state: string }[] }).value,
        (list) => list.length > 0 && list.every((p) => p.state !== 'running'),
      );
      expect(JSON.stringify(pushes)).toContain('unAuthApiKey');
      await ask('kb.search', { prompts: ['mug'] });
      const submit = await ask('batches.submit', {
        draft: {
          id: 'd-echo',
          name: 'Echo',
          model: 'imgvendor-3.1-flash-image',
          items: [{ customId: 'r1', prompt: 'a mug', outputCount: 1, referenceIds: [] }],
          sharedReferenceIds: [],
          references: [],
          responseMime: 'image/png',
        },
      });
      expect(JSON.stringify(submit)).toContain('INVALID_API_KEY');
      await ask('batches.submissions');
      await ask('profiles.list');
      await ask('settings.get');
    } finally {
      await services.close();
      for (const restore of writes) restore();
    }

    expect(events.some((e) => e.startsWith('realtime.updated') && e.includes('UNAUTHENTICATED'))).toBe(true);
    expect(events.some((e) => e.startsWith('kb.pushProgress'))).toBe(true);
    // The gateway's words did reach the answers, with every form of the key masked.
    expect(answers.join('\n')).toMatch(/API key •+ \(received as •+; credential •+/);
    expectNoKey('answers', answers.join('\n'));
    expectNoKey('events', events.join('\n'));
    expectNoKey('output', printed.join(''));
    const files = studioFiles(services.dataDir);
    expect(files.map((f) => f.name)).toEqual(
      expect.arrayContaining([join('realtime', 'jobs.json'), 'settings.json']),
    );
    expect(files.some((f) => f.name.startsWith(join('kb', 'pushes')))).toBe(true);
    for (const file of files) expectNoKey(file.name, file.text);
    const secrets = join(services.dataDir, 'secrets.json');
    expect(readFileSync(secrets, 'utf8')).toContain(WRONG_GATEWAY_KEY);
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
  });
});

describe('redact', () => {
  const key = 'sk-live/9f+2a7c41e6b0d3';

  it('masks a key as sent, URL-encoded, JSON-escaped and inside base64 at any alignment', () => {
    for (const before of ['', 'a', 'ab', 'user:', 'Bearer ']) {
      for (const after of ['', 'x', 'yz']) {
        const b64 = Buffer.from(`${before}${key}${after}`).toString('base64');
        const urlSafe = b64.replace(/\+/g, '-').replace(/\//g, '_');
        const text = `${key} ${encodeURIComponent(key)} ${JSON.stringify(key)} ${b64} ${urlSafe}`;
        const out = redact(text, [key]);
        expect(out).not.toContain(key);
        expect(out).not.toContain(encodeURIComponent(key));
        for (const word of out.split(' ').slice(3)) {
          const decoded = Buffer.from(word.replace(/•+/g, ''), 'base64').toString('latin1');
          expect(decoded).not.toContain(key.slice(4, -4));
        }
      }
    }
  });

  it('leaves other text alone and ignores empty or tiny secrets', () => {
    expect(redact('nothing secret here', [key, undefined, '', 'ab'])).toBe('nothing secret here');
    expect(redact(`a ${key} b`, [undefined, key])).toBe('a •••• b');
  });
});

describe('a batch ZIP whose errors.json repeats a key', () => {
  it('is kept without it', async () => {
    const client = new BatchClient({
      baseUrl: 'http://127.0.0.1:9',
      key: REAL_KEY,
      knownKeys: () => [WRONG_KB_KEY],
    });
    const zip = zipSync({
      'manifest.json': strToU8(JSON.stringify({ batch_id: 'b', success_count: 0, files: [] })),
      'errors.json': strToU8(
        JSON.stringify([
          { custom_id: 'r1', code: 'UPSTREAM', message: `upstream refused key ${REAL_KEY}` },
          { custom_id: 'r2', code: 'UPSTREAM', message: `and ${WRONG_KB_KEY} too` },
        ]),
      ),
    });
    const { result } = await extractZip(zip, { scrub: (text) => client.scrub(text) });
    expect(result.errors.map((e) => e.message)).toEqual(['upstream refused key ••••', 'and •••• too']);
  });
});
