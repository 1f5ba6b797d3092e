import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../../src-shared/connection';
import type { KbCheckedRow, KbPush } from '../../src-shared/kb-view';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

const pushes = async (services: any): Promise<KbPush[]> => call(services, 'kb.pushes');

describe('the knowledge base tells the truth', () => {
  it('flags a row over the limit whichever part is long, with rows that fit', async () => {
    const services = await startServices();
    const longAnswer = 'The grain of cold-press paper shows through every wash. '.repeat(400);
    const longQuestion = `What is the rule for ${'layered glazes and lifted highlights, '.repeat(700)}?`;
    const [answerLong, questionLong, bothLong, empty, fine]: KbCheckedRow[] = await call(
      services,
      'kb.check',
      {
        mode: 'index',
        rows: [
          { q: 'How do we paint paper grain?', a: longAnswer },
          { q: longQuestion, a: 'Thin layers.' },
          { q: longQuestion, a: longAnswer },
          { q: '', a: 'an answer without a question' },
          { q: 'short', a: 'short' },
        ],
      },
    );
    expect(answerLong).toMatchObject({ over: true, problem: 'answer' });
    expect(answerLong!.split!.length).toBeGreaterThan(1);
    for (const row of answerLong!.split!) expect(row.q).toBe('How do we paint paper grain?');
    expect(
      answerLong!
        .split!.map((r) => r.a)
        .join(' ')
        .replace(/\s+/g, ' '),
    ).toBe(longAnswer.trim().replace(/\s+/g, ' '));
    expect(questionLong).toMatchObject({ over: true, problem: 'question' });
    for (const row of questionLong!.split!) expect(row.a).toBe('Thin layers.');
    expect(bothLong).toMatchObject({ over: true, problem: 'both' });
    expect(empty).toMatchObject({ over: true, problem: 'empty' });
    expect(fine).toMatchObject({ over: false });
    expect(fine!.problem).toBeUndefined();

    // Every suggested row fits: checking them again flags none.
    const again: KbCheckedRow[] = await call(services, 'kb.check', {
      mode: 'index',
      rows: [...answerLong!.split!, ...questionLong!.split!],
    });
    expect(again.filter((r) => r.over)).toEqual([]);
  });

  it('a wrong key refuses the whole upload, and the connection status says the key was refused', async () => {
    const services = await startServices();
    const before: ConnectionStatus = await call(services, 'connection.check');
    expect(before.state).toBe('ok');
    await call(services, 'profiles.save', {
      id: 'sandbox',
      name: 'Sandbox',
      baseUrl: services.sandbox.url,
      kbKey: 'kb-wrong',
      defaultAppId: 'app-sandbox',
      defaultKbId: 'kb-docs',
    });
    const push: KbPush = await call(services, 'kb.push', {
      rows: Array.from({ length: 30 }, (_, i) => ({ q: `question ${i}`, a: `answer ${i}` })),
      mode: 'index',
      chunkSize: 10,
    });
    const end = await waitUntil(
      async () => (await pushes(services)).find((p) => p.id === push.id)!,
      (p) => p.state !== 'running',
    );
    expect(end).toMatchObject({ state: 'refused', inserted: 0, error: { code: 'unAuthApiKey' } });
    const status = await waitUntil(
      (): Promise<ConnectionStatus> => call(services, 'connection.status'),
      (s) => s.state !== 'checking' && s.kb !== undefined,
    );
    expect(status.kb).toMatchObject({ state: 'error', error: { code: 'unAuthApiKey' } });

    // With the right key again, the next search clears it.
    await call(services, 'profiles.save', {
      id: 'sandbox',
      name: 'Sandbox',
      baseUrl: services.sandbox.url,
      kbKey: 'kb-sandbox',
      defaultAppId: 'app-sandbox',
      defaultKbId: 'kb-docs',
    });
    const fixed: ConnectionStatus = await call(services, 'connection.check');
    expect(fixed.kb).toBeUndefined();
    await call(services, 'kb.search', { prompts: ['anything'], similarity: 0.5, limit: 3 });
    expect((await call(services, 'connection.status')).kb).toEqual({ state: 'ok' });
  });

  it('a damaged upload record costs only its own entry in the list of uploads', async () => {
    const first = await startServices({ kbSleep: async () => undefined, keepOpen: true });
    const push: KbPush = await call(first, 'kb.push', {
      rows: [{ q: 'a question', a: 'an answer' }],
      mode: 'index',
    });
    await waitUntil(
      async () => (await pushes(first)).find((p) => p.id === push.id)!,
      (p) => p.state === 'done',
    );
    await first.close();
    writeFileSync(join(first.dataDir, 'kb', 'pushes', 'kbpush_0broken.json'), '{"id": ');
    const second = await startServices({ dataDir: first.dataDir });
    expect((await pushes(second)).map((p) => [p.id, p.state])).toEqual([[push.id, 'done']]);
  });
});
