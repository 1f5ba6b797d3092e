import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Draft } from '../../src-shared/draft';
import { StudioError } from '../../src-shared/studio-error';
import { BatchSubmitter } from '../services/batches/batch-submitter';
import { SubmissionStore } from '../services/batches/submission-store';
import { BatchClient } from '../services/gateway/batch-client';
import { KbClient } from '../services/kb/kb-client';
import { RealtimeClient } from '../services/realtime/realtime-client';
import { ReferenceStore } from '../services/references/reference-store';
import sharp from 'sharp';
import { realtimeAnswer } from './helpers/client-calls';
import { startHostileGateway, type HostileAnswer } from './helpers/hostile-gateway';
import { FLASH } from './helpers/prompts-draft';

// What the fuzz of gateway-answers-fuzz.test.ts found, one damaged answer each, over real HTTP.

const KEY = 'sk-damaged/live+1f2e=3d4c5b6a';
const gateway = await startHostileGateway();
const folder = mkdtempSync(join(tmpdir(), 'damaged-answers-'));
afterAll(async () => {
  await gateway.close();
  rmSync(folder, { recursive: true, force: true });
});
const account = { baseUrl: gateway.url, key: KEY };

const json = (body: unknown, status = 200, extra: Partial<HostileAnswer> = {}): HostileAnswer => ({
  status,
  headers: { 'content-type': 'application/json', 'x-request-id': 'gw-req-77' },
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  ...extra,
});
const batch = {
  id: 'imgbatch_5e1d',
  task_name: 'Spring posters',
  status: 'queued',
  model: FLASH,
  item_count: 1,
  estimated_cost: 0.04,
  hold_amount: 0.02,
  actual_cost: null,
  created_at: 1_700_000_000,
};

async function failure(run: () => Promise<unknown>): Promise<StudioError> {
  const error = await run().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(StudioError);
  return error as StudioError;
}

describe('a create whose 2xx answer cannot be read', () => {
  const submitter = new BatchSubmitter({
    submissions: new SubmissionStore(join(folder, 'submissions')),
    references: new ReferenceStore(join(folder, 'references')),
    clientFor: () => new BatchClient(account),
    onCreated: () => undefined,
    speedFor: () => 10_000,
  });
  const draft = (name: string): Draft => ({
    id: name,
    name,
    model: FLASH,
    items: [{ customId: 'p1', prompt: 'a spring poster', outputCount: 1, referenceIds: [] }],
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png',
  });

  const damages: [string, HostileAnswer][] = [
    ['cut JSON', json(JSON.stringify(batch).slice(0, 40))],
    ['JSON that is not a batch', json({ ...batch, id: null })],
    ['a body that breaks off', json(batch, 202, { drop: 'body' })],
  ];
  for (const [damage, answer] of damages)
    it(`(${damage}) is resent with the same key, never ended as failed to be sent anew`, async () => {
      gateway.answer((_req, n) => (n === 1 ? answer : json(batch, 202)));
      const reserved = submitter.reserve('default', draft(`Spring ${damage}`));
      const sent = await submitter.send(reserved);
      expect(sent.state).toBe('created');
      expect(sent.batchId).toBe(batch.id);
      expect(gateway.seen.map((r) => r.headers['idempotency-key'])).toEqual([reserved.id, reserved.id]);
    });
});

describe('damaged answers become errors in words', () => {
  const batches = new BatchClient(account);

  it("an answer cut inside its body is a network error with the answer's request id", async () => {
    gateway.answer(() => json(batch, 200, { drop: 'body' }));
    const error = await failure(() => batches.get(batch.id));
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', requestId: 'gw-req-77', retryable: true });
    expect(error.message).toMatch(/broke off/);
  });

  it('a connection closed before any answer is told in words, not by its undici code', async () => {
    gateway.answer(() => json(batch, 200, { drop: 'headers' }));
    const error = await failure(() => batches.get(batch.id));
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toMatch(/closed before an answer/);
    expect(error.message).not.toMatch(/UND_ERR|other side closed/);
  });

  it('a download cut inside its body says how far it came, not "terminated"', async () => {
    gateway.answer(() => ({ ...json('x'.repeat(4000)), drop: 'body' }));
    const path = batches.contentPath(batch.id, 'p1');
    const error = await failure(() => batches.downloadTo(path, join(folder, 'p1.png'), () => undefined));
    expect(error.message).toMatch(/^The download broke off after \d+ bytes\.$/);
  });

  it("an answer of another shape names the field, and keeps the status, not zod's words", async () => {
    gateway.answer(() => json({ ...batch, status: 42, task_name: null }));
    const error = await failure(() => batches.get(batch.id));
    expect(error).toMatchObject({ code: 'GATEWAY_BAD_RESPONSE', httpStatus: 200, requestId: 'gw-req-77' });
    expect(error.message).not.toMatch(/expected|received|Invalid input/i);
    expect(error.message).toMatch(/\(at (status|task_name)\)/);
  });

  it('a realtime model list or generateContent answer of another shape is a bad answer, not a TypeError', async () => {
    const realtime = new RealtimeClient(account, { sleep: async () => undefined });
    for (const body of ['{"models": tru', '{"models": [null, {"name": 7}]}', 'null']) {
      gateway.answer(() => json(body));
      const outcome = await realtime.models().catch((err: unknown) => err);
      if (Array.isArray(outcome)) expect(outcome).toEqual([]);
      else expect(outcome).toMatchObject({ code: 'GATEWAY_BAD_RESPONSE', requestId: 'gw-req-77' });
    }
    const request = { model: FLASH, prompt: 'a poster', images: [], imageSize: '1K' as const };
    gateway.answer(() => json('null'));
    expect(await failure(() => realtime.generate(request))).toMatchObject({ code: 'GATEWAY_BAD_RESPONSE' });
    gateway.answer(() =>
      json({ candidates: [{ content: { parts: [null, { inlineData: { data: 42 } }] } }] }),
    );
    expect(await failure(() => realtime.generate(request))).toMatchObject({ code: 'STUDIO_NO_IMAGE' });
  });

  it('a realtime image is named by its bytes, not by the type the answer declares', async () => {
    const realtime = new RealtimeClient(account, { sleep: async () => undefined });
    const jpeg = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c84' } })
      .jpeg()
      .toBuffer();
    gateway.answer(() => json(realtimeAnswer(jpeg.toString('base64'))));
    const result = await realtime.generate({ model: FLASH, prompt: 'a poster', images: [], imageSize: '1K' });
    expect(result).toMatchObject({ mime: 'image/jpeg', extension: 'jpg' });
  });

  it('knowledge-base hits of another shape are a bad answer, and a count that is no count reads 0', async () => {
    const kb = new KbClient({ baseUrl: gateway.url, key: 'kb-damaged/live+9a8b=7c6d' });
    gateway.answer(() => json({ code: 200, message: '', data: { rawSearch: 'none' } }));
    const error = await failure(() =>
      kb.search({ appId: 'a', similarity: 0.8, limit: 5, prompts: ['paper'] }),
    );
    expect(error).toMatchObject({ code: 'GATEWAY_BAD_RESPONSE', requestId: 'gw-req-77' });
    for (const data of ['-Infinity', 1e308, 2.5, -3]) {
      gateway.answer(() => json({ code: 200, message: 'pushed', data }));
      expect((await kb.pushData({ kbId: 'k', mode: 'qa', data: [{ q: 'q', a: 'a' }] })).inserted).toBe(0);
    }
  });
});
