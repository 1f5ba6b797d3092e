import Conf from 'conf';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretStore } from '../services/secrets/secret-store';
import { startStudio } from '../services/studio-start';
import { startWebHost } from '../web/web-host';

// Issue 36: the first screen's services (settings, drafts) answer before the rest (the sandbox,
// the catalog, the poller…) has started; the other calls wait for the rest, then are answered.
describe('the first screen is answered before the rest of the services start', () => {
  it('answers settings and drafts, and opens the event stream, while a batches call waits for the rest', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-first-'));
    const rendererDir = mkdtempSync(join(tmpdir(), 'studio-renderer-'));
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
    let letTheRestStart!: () => void;
    const restMayStart = new Promise<void>((resolve) => (letTheRestStart = resolve));
    const starting = startStudio(
      {
        host: 'browser',
        version: '0.0.0-test',
        dataDir,
        store: new Conf<Record<string, unknown>>({ cwd: dataDir, configName: 'settings', projectName: 't' }),
        secrets: new FileSecretStore(dataDir),
        sandboxTimeScale: 1000,
      },
      () => restMayStart,
    );
    const host = await startWebHost({
      services: starting.all,
      first: Promise.resolve(starting.first),
      rendererDir,
      token: 'first-token',
    });
    const call = (method: string, input: unknown = {}) =>
      fetch(`${host.origin}/api/${method}`, {
        method: 'POST',
        headers: { authorization: 'Bearer first-token', 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
    try {
      let batchesAnswered = false;
      const batches = call('batches.list').then((res) => ((batchesAnswered = true), res));

      const settings = await call('settings.get');
      expect(settings.status).toBe(200);
      expect(((await settings.json()) as { result: { language: string } }).result.language).toBe('en');
      const draft = {
        id: 'd1',
        name: 'Mugs',
        model: 'm',
        items: [{ customId: 'r1', prompt: 'a mug', outputCount: 1 }],
      };
      expect((await call('drafts.save', { draft })).status).toBe(200);
      const list = (await (await call('drafts.list')).json()) as { result: { id: string; rows: number }[] };
      expect(list.result).toEqual([expect.objectContaining({ id: 'd1', rows: 1 })]);
      const events = await fetch(`${host.origin}/api/events`, {
        headers: { authorization: 'Bearer first-token' },
      });
      expect(events.status).toBe(200);
      await events.body?.cancel();
      // Input is still checked against the contract on the first services.
      expect((await call('drafts.get', { id: 7 })).status).toBe(400);

      // The rest has not been let start: the batches call is still waiting for it.
      expect(batchesAnswered).toBe(false);
      letTheRestStart();
      const answered = await batches;
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as { result: unknown[] }).result).toEqual([]);
      // The same drafts, now through every service.
      const all = await starting.all;
      expect((await all.dispatch('drafts.get', { id: 'd1' })).ok).toBe(true);
      await all.close();
    } finally {
      letTheRestStart();
      await host.close();
    }
  });
});
