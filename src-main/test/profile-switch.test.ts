import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KbPush } from '../../src-shared/kb-view';
import type { RealtimeJob } from '../../src-shared/realtime-view';
import { call, startServices, waitUntil, type TestServices } from './helpers/studio-fixture';

async function pushDone(s: TestServices, id: string): Promise<KbPush> {
  return waitUntil(
    async () => ((await call(s, 'kb.pushes')) as KbPush[]).find((p) => p.id === id)!,
    (p) => p.state !== 'running',
  );
}

async function jobDone(s: TestServices, id: string): Promise<RealtimeJob> {
  return waitUntil(
    async () => ((await call(s, 'realtime.jobs')) as RealtimeJob[]).find((j) => j.id === id)!,
    (j) => !['queued', 'running'].includes(j.state),
  );
}

describe('switching the active profile: knowledge base and realtime', () => {
  it('uploads, searches and realtime jobs are listed for their own profile only, and events name it', async () => {
    const s = await startServices({ kbSleep: async () => undefined });
    const heard: { event: string; profileId: string }[] = [];
    s.events.subscribe((event, payload) => {
      if (event === 'kb.pushProgress' || event === 'realtime.updated')
        heard.push({ event, profileId: (payload as { profileId: string }).profileId });
    });
    const info = await call(s, 'app.info');
    const alice = (await call(s, 'settings.get')).activeProfileId as string;

    const alicePush = await call(s, 'kb.push', { rows: [{ q: 'Alice asks', a: 'teal' }], mode: 'index' });
    expect((await pushDone(s, alicePush.id)).state).toBe('done');
    await call(s, 'kb.search', { prompts: ['Alice asks'], similarity: 0.1, limit: 3 });
    const aliceJob = await call(s, 'realtime.generate', {
      prompt: 'Alice’s teapot',
      model: 'imgvendor-3.1-flash-image',
    });
    await jobDone(s, aliceJob.id);

    const bob = await call(s, 'profiles.save', {
      name: 'Bob',
      baseUrl: info.sandboxUrl,
      gatewayKey: 'sk-sandbox-bob',
      kbBaseUrl: info.sandboxUrl,
      kbKey: 'kb-sandbox',
      defaultAppId: 'app-sandbox',
      defaultKbId: 'kb-styles',
    });
    await call(s, 'profiles.activate', { id: bob.id });
    expect(await call(s, 'kb.pushes')).toEqual([]);
    expect(await call(s, 'kb.history')).toEqual([]);
    expect(await call(s, 'realtime.jobs')).toEqual([]);
    // Alice's upload cannot be resumed from Bob's profile, any more than it can be seen there.
    const resumed = await s.dispatch('kb.resume', { id: alicePush.id });
    expect(!resumed.ok && resumed.error.code).toBe('STUDIO_PUSH_NOT_FOUND');

    const bobPush = await call(s, 'kb.push', { rows: [{ q: 'Bob asks', a: 'amber' }], mode: 'index' });
    await pushDone(s, bobPush.id);
    await call(s, 'kb.search', { prompts: ['Bob asks'], similarity: 0.1, limit: 3 });
    const pushes: KbPush[] = await call(s, 'kb.pushes');
    expect(pushes.map((p) => [p.id, p.profileId])).toEqual([[bobPush.id, bob.id]]);
    const history = await call(s, 'kb.history');
    expect(history.map((h: { prompts: string[] }) => h.prompts)).toEqual([['Bob asks']]);

    await call(s, 'profiles.activate', { id: alice });
    expect(((await call(s, 'kb.pushes')) as KbPush[]).map((p) => p.id)).toEqual([alicePush.id]);
    expect((await call(s, 'kb.history')).map((h: { prompts: string[] }) => h.prompts)).toEqual([
      ['Alice asks'],
    ]);
    expect(((await call(s, 'realtime.jobs')) as RealtimeJob[]).map((j) => j.id)).toEqual([aliceJob.id]);

    // Every progress event says whose upload or job it is, so a window can file it correctly.
    expect(heard.filter((h) => h.event === 'kb.pushProgress').map((h) => h.profileId)).toContain(bob.id);
    expect(heard.every((h) => h.profileId === alice || h.profileId === bob.id)).toBe(true);
  });

  it('an upload and a search recorded before they carried a profile stay visible to the active profile', async () => {
    const s = await startServices({ kbSleep: async () => undefined, keepOpen: true });
    mkdirSync(join(s.dataDir, 'kb', 'pushes'), { recursive: true });
    const old = { id: 'kbpush_old', kbId: 'kb-docs', mode: 'index', state: 'done', inserted: 1 };
    writeFileSync(
      join(s.dataDir, 'kb', 'pushes', 'kbpush_old.json'),
      JSON.stringify({
        ...old,
        failedChunks: 0,
        createdAt: 1,
        chunks: [{ rows: [], state: 'sent', inserted: 1 }],
      }),
    );
    const search = {
      id: 'kbq_old',
      at: 1,
      appId: 'app-sandbox',
      similarity: 0.5,
      limit: 3,
      prompts: ['old'],
    };
    writeFileSync(
      join(s.dataDir, 'kb', 'searches.json'),
      JSON.stringify([{ ...search, rawSearch: [], userSystemPrompt: '', quotePrompt: '' }]),
    );
    await s.close();
    const again = await startServices({ dataDir: s.dataDir });
    const active = (await call(again, 'settings.get')).activeProfileId;
    expect(await call(again, 'kb.pushes')).toMatchObject([{ id: 'kbpush_old', profileId: active }]);
    expect(await call(again, 'kb.history')).toMatchObject([{ id: 'kbq_old', profileId: active }]);
  });
});
