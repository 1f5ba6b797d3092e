import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { studioMethods } from '../../src-shared/studio-api';
import { seededRandom } from './helpers/seeded-random';
import { startBrowserMode } from '../web/browser-mode';
import { hostileBody, type Known, type Random } from './helpers/hostile-input';
import { promptsDraft } from './helpers/prompts-draft';
import { call, submitAndDownload } from './helpers/studio-fixture';

/**
 * Every StudioApi method driven over the browser-mode HTTP API with hostile input, from a seed:
 * FUZZ_SEED and FUZZ_CASES run other and more cases (a failure prints the seed and the case).
 * Everything runs against the in-process sandbox, in a temporary data folder.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20240611);
const CASES = Number(process.env.FUZZ_CASES ?? 300);
/** Far beyond any answer's time, even on a loaded machine: only a host that hangs reaches it. */
const HANG_MS = 30_000;
const SECRET = 'sk-live-FUZZ0123456789abcdefSECRET';

const root = mkdtempSync(join(tmpdir(), 'studio-fuzz-'));
const rendererDir = join(root, 'renderer');
mkdirSync(rendererDir);
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
const dataDir = join(root, 'data');
/** Where exports and library folders may go: nothing the fuzz writes is outside `root`. */
const scratch = join(root, 'scratch');
mkdirSync(scratch);
// The fuzz waits for one small batch's download: with the sandbox's usual 8 % item failures, both of
// its items failed about once in 160 runs and it waited for a download that never came.
process.env.STUDIO_SANDBOX_ITEM_FAILURE_RATE = '0';
const { host, services } = await startBrowserMode({ port: 0, dataDir, rendererDir, sandboxTimeScale: 1000 });
delete process.env.STUDIO_SANDBOX_ITEM_FAILURE_RATE;
afterAll(async () => {
  await host.close();
  await services.close();
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function send(
  path: string,
  init: { token?: string; body?: string; contentType?: string },
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.token !== undefined) headers.authorization = init.token;
  if (init.contentType) headers['content-type'] = init.contentType;
  // Not a timing assertion: a host that never answers fails here, naming the case, instead of the whole run timing out.
  const res = await fetch(`${host.origin}${path}`, {
    method: 'POST',
    headers,
    body: init.body,
    signal: AbortSignal.timeout(HANG_MS),
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** Text no answer may carry: a stack, a parser's or Node's own words, the key. */
const LEAKS: [string, RegExp][] = [
  ['stack trace', /\n\s+at |at [\w.<>]+ \(.*:\d+:\d+\)|node:internal/],
  ['zod text', /expected \w+, received|Invalid input: expected|Too (small|big): expected|Unrecognized key/i],
  ['JSON.parse text', /Unexpected token|Unexpected end of JSON|" is not valid JSON|in JSON at position/],
  [
    'Node error code',
    /\bERR_[A-Z_]{3,}\b|\bE(NOENT|ACCES|PERM|EXIST|NOTDIR|ISDIR|NAMETOOLONG|INVAL|ROFS|NOSPC)\b/,
  ],
  ['secret', new RegExp(SECRET)],
];

/** What every answer must be: JSON, a sensible status, a typed refusal, nothing leaked. */
function checkAnswer(label: string, answer: Answer, expectStatus?: number): any {
  expect(answer.status, `${label}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
  expect(answer.status, `${label}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (expectStatus !== undefined) expect(answer.status, label).toBe(expectStatus);
  expect(answer.contentType, label).toContain('application/json');
  const body = JSON.parse(answer.text);
  if (answer.status >= 300) {
    expect(body.error, label).toMatchObject({ code: expect.stringMatching(/^[\w.-]{2,80}$/) });
    expect(typeof body.error.message, label).toBe('string');
    expect(body.error.message.length, label).toBeGreaterThan(0);
  } else expect(body, label).toHaveProperty('result');
  for (const [what, pattern] of LEAKS) expect(answer.text, `${label}: ${what}`).not.toMatch(pattern);
  return body;
}

const METHODS = Object.keys(studioMethods);
const UNKNOWN_METHODS = [
  '',
  'nope',
  '__proto__',
  'constructor',
  'toString',
  'SETTINGS.GET',
  'settings.get.x',
  'settings..get',
  '%00',
  'x'.repeat(5000),
];

describe('the browser-mode API under hostile input', async () => {
  // A profile holding a key: it must never come back in any answer, whatever is asked.
  const profile = checkAnswer(
    'profile with key',
    await send('/api/profiles.save', {
      token: `Bearer ${host.token}`,
      contentType: 'application/json',
      body: JSON.stringify({
        name: 'Keyed',
        baseUrl: services.sandbox.url,
        gatewayKey: SECRET,
        kbKey: SECRET,
      }),
    }),
    200,
  ).result;
  // Real things for the fuzz to name: a downloaded batch, its images, a draft, a collection.
  const batch = await submitAndDownload(
    services,
    promptsDraft('fuzz-draft', 'Fuzz', ['a red fox', 'a blue jay']),
  );
  const images = ((await call(services, 'library.query', {})).items as { id: string }[]).map((i) => i.id);
  const collection = await call(services, 'collections.create', { name: 'Fuzz board', ids: images });
  const models = [...(await call(services, 'batches.models')), ...(await call(services, 'realtime.models'))];
  const png = (
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } })
      .png()
      .toBuffer()
  ).toString('base64');
  const ids = [batch.id, ...images, 'fuzz-draft', profile.id, 'sandbox', collection.id];

  const knownFor = (rand: Random): Known => ({
    ids,
    field(key) {
      if (/url$/i.test(key)) return services.sandbox.url;
      if (key === 'timeZone') return rand() < 0.5 ? 'Europe/Berlin' : 'America/Los_Angeles';
      // Exports and library folders only ever land inside the test's own folder.
      if (key === 'folder' || key === 'libraryDir') return join(scratch, `f${Math.floor(rand() * 5)}`);
      if (key === 'dataBase64') return rand() < 0.7 ? png : Buffer.from('not an image').toString('base64');
      if (key === 'model' || key === 'models') return models[Math.floor(rand() * models.length)];
      if (key === 'gatewayKey' || key === 'kbKey') return 'sk-fuzz-key';
      if (key === 'customId') return rand() < 0.7 ? 'r1' : 'r9';
      if (key === 'runId') return `fuzzrun-${Math.floor(rand() * 1e6)}`;
      return undefined;
    },
  });

  it(
    `answers ${CASES} hostile calls (seed ${SEED}) with JSON, never a 500, a leak or a hang`,
    async () => {
      const rand = seededRandom(SEED);
      const tally: Record<string, number> = {};
      let done = 0;
      while (done < CASES) {
        // A few calls at once, sometimes the same one twice: the double click, the second window.
        const group = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
          const unknown = rand() < 0.05;
          const method = unknown
            ? UNKNOWN_METHODS[Math.floor(rand() * UNKNOWN_METHODS.length)]!
            : METHODS[Math.floor(rand() * METHODS.length)]!;
          const body = unknown
            ? { kind: 'unknown method', body: '{}', contentType: 'application/json' }
            : hostileBody(studioMethods[method as keyof typeof studioMethods].input, rand, knownFor(rand));
          const tokenRoll = rand();
          const token =
            tokenRoll < 0.04
              ? undefined
              : tokenRoll < 0.07
                ? `Bearer ${host.token}x`
                : tokenRoll < 0.09
                  ? `bearer ${host.token}`
                  : tokenRoll < 0.1
                    ? host.token
                    : `Bearer ${host.token}`;
          return { method, body, token, id: done++ };
        });
        if (rand() < 0.2) group.push({ ...group[0]!, id: group[0]!.id });
        const labelOf = (c: (typeof group)[number]) =>
          `seed ${SEED} case ${c.id}: ${c.method} (${c.body.kind}) ${String(c.body.body).slice(0, 300)}`;
        const answers = await Promise.all(
          group.map((c) =>
            send(`/api/${encodeURIComponent(c.method)}`, {
              token: c.token,
              body: c.body.body,
              contentType: c.body.contentType,
            }).catch((err: unknown) => {
              throw new Error(`${labelOf(c)}: no answer (${(err as Error).name})`);
            }),
          ),
        );
        answers.forEach((answer, i) => {
          const c = group[i]!;
          const label = labelOf(c);
          const authorized = c.token === `Bearer ${host.token}`;
          const body = checkAnswer(label, answer, authorized ? undefined : 401);
          const seen = `${answer.status} ${body.error?.code ?? c.method}`;
          tally[seen] = (tally[seen] ?? 0) + 1;
          if (authorized && UNKNOWN_METHODS.includes(c.method))
            expect(body.error.code, label).toBe('STUDIO_UNKNOWN_METHOD');
        });
        // The host is still up and answering plainly after whatever came before.
        checkAnswer(
          'settings.get after a group',
          await send('/api/settings.get', { token: `Bearer ${host.token}` }),
          200,
        );
      }
      // FUZZ_TALLY=1 shows what the cases reached: how many got past validation into each service.
      if (process.env.FUZZ_TALLY) console.log(JSON.stringify(tally, null, 1));
      // The fuzz is only worth its time if calls get past validation: some of every kind answered.
      expect(Object.keys(tally).filter((k) => k.startsWith('200 ')).length).toBeGreaterThan(
        METHODS.length / 3,
      );
      // Whatever the fuzz asked, nothing was written outside the test's folder by an export.
      expect(readdirSync(process.cwd())).not.toContain('manifest.json');
    },
    60_000 + CASES * 50,
  );
});
