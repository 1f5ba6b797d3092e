import { describe, expect, it } from 'vitest';
import type { BatchView } from '../../src-shared/batch-view';
import type { Draft } from '../../src-shared/draft';
import { auditLibrary } from './helpers/library-audit';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

const KEY = 'sk-sandbox-alice';

describe('reliability under faults', () => {
  it('with 20 % of requests failing in every way, 10 batches of 20 end complete, each created once', async () => {
    // `all` spreads faults over every request; the named ones make sure each rare kind happens too,
    // however few requests a run needs (a faster download polls less and draws fewer faults).
    const faults =
      'all=0.2,lostcreate=#2,truncate=#3,submit_failed=#1,queue_failed=#1,hold_failed=#1,500=#2,' +
      '502=#1,504=#1,slow=#2,slow_ms=100,seed=11';
    const services = await startServices({ sandboxTimeScale: 400, sandbox: { faults } });
    const drafts: Draft[] = Array.from({ length: 10 }, (_, b) => ({
      id: `fault-draft-${b}`,
      name: `Fault batch ${b}`,
      model: 'imgvendor-3.1-flash-image',
      items: Array.from({ length: 20 }, (_, i) => ({
        customId: `b${b}-i${i}`,
        prompt: `Batch ${b} item ${i}`,
        outputCount: 1,
        referenceIds: [],
      })),
      sharedReferenceIds: [],
      references: [],
      responseMime: 'image/png',
    }));

    // A designer presses Submit again only when the studio reports a definite failure.
    const ids: string[] = [];
    let definiteFailures = 0;
    for (const draft of drafts) {
      for (;;) {
        const result = await services.dispatch('batches.submit', { draft });
        if (result.ok) {
          ids.push((result.value as any).batch.id);
          break;
        }
        expect(result.error.code).not.toBe('STUDIO_INTERNAL');
        definiteFailures++;
      }
    }
    expect(new Set(ids).size).toBe(10);

    const views = await waitUntil(
      async () => Promise.all(ids.map((id) => call(services, 'batches.get', { id }) as Promise<BatchView>)),
      (list) => list.every((b) => b.download.state === 'done'),
      180_000,
    );

    const fired = services.sandbox.inspect().faultsFired;
    services.sandbox.faults.set('');
    for (const kind of [
      '429',
      '500',
      '502',
      '503',
      '504',
      'reset',
      'slow',
      'lostcreate',
      'truncate',
      'submit_failed',
      'queue_failed',
      'hold_failed',
    ]) {
      expect(fired[kind as keyof typeof fired], kind).toBeGreaterThan(0);
    }
    expect(definiteFailures).toBeGreaterThanOrEqual(3);
    const account = services.sandbox.inspect().accounts[KEY]!;
    expect(account.batchesCreated).toBe(10);
    expect(account.holdsPlaced).toBe(10);
    expect(account.held).toBe(0);

    const { folders, partial } = auditLibrary((await call(services, 'settings.get')).libraryDir);
    expect(partial).toEqual([]);
    expect(folders.size).toBe(10);
    let images = 0;
    for (const view of views) {
      const server = await (
        await fetch(`${services.sandbox.url}/v1/images/batches/${view.id}/items?status=success&limit=500`, {
          headers: { authorization: `Bearer ${KEY}` },
        })
      ).json();
      const expected = (server as any).data.map((i: any) => `${i.custom_id}.png`).sort();
      expect(folders.get(view.id)!.images).toEqual(expected);
      images += expected.length;
    }
    console.log(
      `faults: ${images} images in 10 batches, ${definiteFailures} resubmits after definite errors, faults fired ${JSON.stringify(fired)}`,
    );
    expect(images).toBeGreaterThan(100);
  }, 240_000);
});
