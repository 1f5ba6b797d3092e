import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices } from './helpers/studio-fixture';

const services = await startServices();
const SECRET = 'sk-live-0123456789abcdefSECRET';

describe('the StudioApi dispatcher, as IPC and HTTP call it', () => {
  it('answers every invalid call with a typed error, never a throw', async () => {
    const bad: [string, unknown][] = [
      ['no.such.method', {}],
      ['', {}],
      ['__proto__', {}],
      ['constructor', {}],
      ['profiles.save', { name: 42 }],
      ['profiles.save', { name: 'x', baseUrl: 'javascript:alert(1)' }],
      ['profiles.save', { name: 'x', baseUrl: 'file:///etc/passwd' }],
      ['profiles.save', { name: 'x', baseUrl: 'https://ok.example', extra: true }],
      ['profiles.save', 'a string'],
      ['profiles.save', [1, 2, 3]],
      ['settings.update', { theme: 'neon' }],
      ['settings.update', { activeProfileId: 'x' }],
      ['settings.update', { language: 'fr' }],
      ['profiles.activate', {}],
      ['profiles.activate', { id: 'missing' }],
      ['profiles.delete', { id: 'sandbox' }],
      ['shell.openExternal', { url: 'file:///etc/passwd' }],
      ['shell.openExternal', { url: 'https://evil.example/phish' }],
      ['dialog.pickFolder', { title: 'x'.repeat(1000) }],
    ];
    for (const [method, input] of bad) {
      const result = await services.dispatch(method, input);
      expect(result.ok, `${method} ${JSON.stringify(input)}`).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toMatch(/^STUDIO_[A-Z_]+$/);
        expect(result.error.message.length).toBeGreaterThan(0);
      }
    }
    const unknown = await services.dispatch('no.such.method', {});
    expect(!unknown.ok && unknown.error.code).toBe('STUDIO_UNKNOWN_METHOD');
    const invalid = await services.dispatch('profiles.save', { name: 42 });
    expect(!invalid.ok && invalid.error.code).toBe('STUDIO_INVALID_INPUT');
  });

  it("says what is wrong with an input in plain words, never the parser's, nor a hostile key as sent", async () => {
    const answers = await Promise.all([
      services.dispatch('profiles.save', { name: 42, baseUrl: 'https://ok.example' }),
      services.dispatch('profiles.save', { baseUrl: 'https://ok.example' }),
      services.dispatch('library.mark', { ids: [], stars: 9 }),
      services.dispatch('settings.update', { theme: 'neon', ['\u001b[31m' + 'k'.repeat(500)]: 1 }),
      services.dispatch('references.downscale', {
        reference: { id: 'a'.repeat(64), name: 'r', mime: 'image/png', bytes: 1, width: 0 },
      }),
      services.dispatch('settings.get', 5),
    ]);
    const messages = answers.map((a) => (a.ok ? '' : a.error.message));
    expect(messages).toEqual([
      'Invalid input for profiles.save: name: should be text',
      'Invalid input for profiles.save: name: is missing',
      'Invalid input for library.mark: ids: should be at least 1 items; stars: should be at most 5',
      `Invalid input for settings.update: theme: should be one of system, light, dark; input: has fields it does not take (?[31m${'k'.repeat(35)}…)`,
      'Invalid input for references.downscale: reference.width: should be more than 0',
      'Invalid input for settings.get: input: should be an object',
    ]);
  });

  it('answers an id too long for a file name as a missing record, not a file system error', async () => {
    // A draft saved first: with no drafts folder yet, the path fails as missing before its name is measured.
    await call(services, 'drafts.save', { draft: promptsDraft('kept', 'Kept', ['a fox']) });
    const id = 'd'.repeat(300);
    expect(await services.dispatch('drafts.delete', { id })).toEqual({ ok: true, value: true });
    expect(await services.dispatch('drafts.get', { id })).toEqual({ ok: true, value: null });
    expect((await call(services, 'drafts.list')).map((d: { id: string }) => d.id)).toEqual(['kept']);
  });

  it('a first run has an active Sandbox profile that connects', async () => {
    const profiles = await call(services, 'profiles.list');
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({
      id: 'sandbox',
      kind: 'sandbox',
      gatewayKey: { set: true, last4: 'lice' },
    });
    expect(profiles[0].baseUrl).toBe(services.sandbox.url);
    expect((await call(services, 'settings.get')).activeProfileId).toBe('sandbox');
    const status = await call(services, 'connection.check');
    expect(status).toMatchObject({ state: 'ok', profileId: 'sandbox' });
    expect(status.models).toContain('imgvendor-3.1-flash-image');
  });

  it('keeps keys in the main process: answers carry only whether a key is set and its last 4', async () => {
    const seen: string[] = [];
    const off = services.events.subscribe((event, payload) => seen.push(JSON.stringify({ event, payload })));
    const saved = await call(services, 'profiles.save', {
      name: 'Team gateway',
      baseUrl: services.sandbox.url,
      gatewayKey: SECRET,
      kbKey: `${SECRET}-kb`,
    });
    expect(saved.gatewayKey).toEqual({ set: true, last4: SECRET.slice(-4) });
    const answers = [
      saved,
      await call(services, 'profiles.list'),
      await call(services, 'settings.get'),
      await call(services, 'app.info'),
      await call(services, 'profiles.activate', { id: saved.id }),
      await call(services, 'connection.check'),
      await call(services, 'profiles.test', { id: saved.id }),
    ];
    off();
    const everything = JSON.stringify(answers) + seen.join('');
    expect(everything).not.toContain(SECRET);
    expect(everything).toContain(SECRET.slice(-4));

    // The key is wrong for the sandbox: the error names the gateway's code and request id, not the key.
    const status = answers[5];
    expect(status.state).toBe('error');
    expect(status.error).toMatchObject({ code: 'INVALID_API_KEY', httpStatus: 401, source: 'gateway' });
    expect(status.error.requestId).toMatch(/\S+/);

    const file = join(services.dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(SECRET);
    expect(readFileSync(join(services.dataDir, 'settings.json'), 'utf8')).not.toContain(SECRET);
  });

  it('an empty key removes it, an absent key keeps it', async () => {
    const saved = await call(services, 'profiles.save', {
      name: 'Keys',
      baseUrl: 'https://gw.example',
      gatewayKey: 'sk-aaaa1111',
    });
    const kept = await call(services, 'profiles.save', {
      id: saved.id,
      name: 'Keys renamed',
      baseUrl: 'https://gw.example',
    });
    expect(kept).toMatchObject({ name: 'Keys renamed', gatewayKey: { set: true, last4: '1111' } });
    const removed = await call(services, 'profiles.save', {
      id: saved.id,
      name: 'Keys',
      baseUrl: 'https://gw.example',
      gatewayKey: '',
    });
    expect(removed.gatewayKey).toEqual({ set: false });
    const status = await call(services, 'profiles.test', { id: saved.id });
    expect(status.error.code).toBe('STUDIO_KEY_MISSING');
  });

  it('deleting the active profile falls back to the Sandbox', async () => {
    const saved = await call(services, 'profiles.save', { name: 'Temp', baseUrl: 'https://gw.example' });
    await call(services, 'profiles.activate', { id: saved.id });
    await call(services, 'profiles.delete', { id: saved.id });
    expect((await call(services, 'settings.get')).activeProfileId).toBe('sandbox');
  });

  it('an unreachable gateway is a network error with a plain message and no key in it', async () => {
    const saved = await call(services, 'profiles.save', {
      name: 'Down',
      baseUrl: 'http://127.0.0.1:9',
      gatewayKey: SECRET,
    });
    const status = await call(services, 'profiles.test', { id: saved.id });
    expect(status.error).toMatchObject({ code: 'NETWORK_ERROR', retryable: true, source: 'network' });
    expect(JSON.stringify(status)).not.toContain(SECRET);
  });

  it('settings survive damage field by field, and updates are pushed as events', async () => {
    const events: unknown[] = [];
    const off = services.events.subscribe(
      (event, payload) => event === 'settings.changed' && events.push(payload),
    );
    const updated = await call(services, 'settings.update', { theme: 'dark', language: 'zh-CN' });
    off();
    expect(updated).toMatchObject({ theme: 'dark', language: 'zh-CN' });
    expect(events).toEqual([updated]);
    (services.settings as any).store.set('settings', { ...updated, theme: 'neon', autoDownload: 'yes' });
    const repaired = await call(services, 'settings.get');
    expect(repaired).toMatchObject({ theme: 'system', language: 'zh-CN', autoDownload: true });
  });

  it('opens only allowed links, and says so when it has no system browser', async () => {
    expect(await call(services, 'shell.openExternal', { url: 'https://github.com/electron/electron' })).toBe(
      false,
    );
    const blocked = await services.dispatch('shell.openExternal', { url: 'https://user:pw@github.com/' });
    expect(!blocked.ok && blocked.error.code).toBe('STUDIO_LINK_BLOCKED');
  });
});
