import { describe, expect, it } from 'vitest';
import { draftFingerprint } from '../../src-shared/draft-fingerprint';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

const MODELS = ['imgvendor-3.1-flash-image', 'imgvendor-3-pro-image'];

describe('one draft on several models', () => {
  it('a run makes one batch per model, a replayed or doubled submit makes none, and the library lines the models up', async () => {
    const services = await startServices();
    const atSandbox = () =>
      Object.values(services.sandbox.inspect().accounts).reduce((n, a) => n + a.batches, 0);
    const draft = {
      id: `run-${Date.now()}`,
      name: 'Mugs on two models',
      model: MODELS[0],
      items: [
        { customId: 'mug', prompt: 'A ceramic mug on linen', outputCount: 1, referenceIds: [] },
        { customId: 'cup', prompt: 'A tea cup on oak', outputCount: 1, referenceIds: [] },
      ],
      sharedReferenceIds: [],
      references: [],
      responseMime: 'image/png' as const,
    };
    const runId = 'run-2026-11-23-a1b2c3';
    // Sent twice at once (a double click), then once more (an answer lost, the click replayed).
    const [first, doubled] = await Promise.all([
      call(services, 'batches.submitRun', { runId, draft, models: MODELS }),
      call(services, 'batches.submitRun', { runId, draft, models: MODELS }),
    ]);
    const replayed = await call(services, 'batches.submitRun', { runId, draft, models: MODELS });
    expect(atSandbox()).toBe(2);
    const ids = (r: any) => r.results.map((x: any) => x.batch.id);
    expect(ids(doubled)).toEqual(ids(first));
    expect(ids(replayed)).toEqual(ids(first));
    expect(first.results.map((x: any) => x.batch.model)).toEqual(MODELS);
    // Each model's batch has its own submission, so its own Idempotency-Key.
    expect(new Set(first.results.map((x: any) => x.submission.id)).size).toBe(2);

    // "Sent before?" knows each model's batch of the run, whatever run id a later click makes.
    for (const model of MODELS) {
      const sent = await call(services, 'batches.lastSent', {
        fingerprint: draftFingerprint({ ...draft, model }),
      });
      expect(sent?.batchId).toBe(first.results.find((x: any) => x.batch.model === model).batch.id);
    }

    const list = await call(services, 'batches.list');
    expect(
      list
        .filter((b: any) => b.runId === runId)
        .map((b: any) => b.model)
        .sort(),
    ).toEqual([...MODELS].sort());

    for (const id of ids(first))
      await waitUntil(
        () => call(services, 'batches.get', { id }),
        (b: any) => b.download.state === 'done',
      );
    const { items } = await call(services, 'library.query', { search: 'ceramic' });
    expect(items).toHaveLength(2);
    const side = await call(services, 'library.acrossModels', { id: items[0].id });
    expect(side.map((i: any) => i.model)).toEqual([...MODELS].sort());
    expect(new Set(side.map((i: any) => i.customId))).toEqual(new Set(['mug']));

    // A new click is a new run of content already sent: main refuses it until the user confirms
    // that earlier batch, then it sends again.
    const next = { runId: 'run-2026-11-23-d4e5f6', draft, models: [MODELS[1]] };
    const refused = await services.dispatch('batches.submitRun', next);
    expect(!refused.ok && refused.error.code).toBe('STUDIO_SENT_BEFORE');
    expect(atSandbox()).toBe(2);
    const earlier = !refused.ok ? refused.error.earlier!.map((e) => e.submissionId) : [];
    await call(services, 'batches.submitRun', { ...next, confirm: { resendOf: earlier } });
    expect(atSandbox()).toBe(3);
  });

  it('checks every model before sending any', async () => {
    const services = await startServices();
    const draft = {
      id: `run-bad-${Date.now()}`,
      name: 'Too many images',
      model: MODELS[0],
      items: [{ customId: 'a', prompt: 'x', outputCount: 1, referenceIds: [] }],
      sharedReferenceIds: [],
      references: [],
      responseMime: 'image/png',
    };
    const bad = { ...draft, items: [{ ...draft.items[0], prompt: '' }] };
    await expect(
      call(services, 'batches.submitRun', { runId: 'run-bad-000001', draft: bad, models: MODELS }),
    ).rejects.toThrow(/STUDIO_DRAFT_INVALID/);
    expect(Object.values(services.sandbox.inspect().accounts).reduce((n, a) => n + a.batches, 0)).toBe(0);
  });
});
