import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startTestBrowserMode } from './helpers/browser-mode-fixture';

const { host } = await startTestBrowserMode('web', { 'assets/app.js': 'console.log(1)' });

function api(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return fetch(`${host.origin}${path}`, {
    method: init.method ?? 'POST',
    headers: init.headers,
    body: init.body,
  });
}
const auth = () => ({ authorization: `Bearer ${host.token}`, 'content-type': 'application/json' });

describe('browser mode', () => {
  it('prints a URL that carries the token in the fragment', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{20,}$/);
  });

  it('refuses every /api request without the token with 401, whatever the route', async () => {
    for (const [method, path] of [
      ['POST', '/api/settings.get'],
      ['POST', '/api/profiles.list'],
      ['POST', '/api/no.such.method'],
      ['GET', '/api/events'],
      ['GET', '/api/settings.get'],
      ['DELETE', '/api/anything/at/all'],
      ['POST', '/api'],
    ] as const) {
      const res = await api(path, { method, body: method === 'POST' ? '{}' : undefined });
      expect([method, path, res.status]).toEqual([method, path, 401]);
      expect(((await res.json()) as any).error.code).toBe('STUDIO_UNAUTHORIZED');
    }
    const wrong = await api('/api/settings.get', { headers: { authorization: 'Bearer nope' }, body: '{}' });
    expect(wrong.status).toBe(401);
    const asQuery = await api(`/api/settings.get?token=${host.token}`, { body: '{}' });
    expect(asQuery.status).toBe(401);
  });

  it('refuses calls from a foreign Origin or Host even with the token', async () => {
    const foreign = await api('/api/settings.get', {
      headers: { ...auth(), origin: 'https://evil.example' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as any).error.code).toBe('STUDIO_FOREIGN_ORIGIN');
    const nullOrigin = await api('/api/settings.get', { headers: { ...auth(), origin: 'null' }, body: '{}' });
    expect(nullOrigin.status).toBe(403);
    const own = await api('/api/settings.get', { headers: { ...auth(), origin: host.origin }, body: '{}' });
    expect(own.status).toBe(200);
    const rebinding = await new Promise<number>((resolve, reject) => {
      const req = request(`${host.origin}/api/settings.get`, {
        method: 'POST',
        headers: { ...auth(), host: 'evil.example:80' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(rebinding).toBe(403);
  });

  it('POST /api/<method> with a JSON body returns JSON; failures carry a typed error', async () => {
    const ok = await api('/api/settings.get', { headers: auth(), body: '{}' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).result).toMatchObject({ activeProfileId: 'sandbox' });
    const empty = await api('/api/profiles.list', { headers: { authorization: `Bearer ${host.token}` } });
    expect(empty.status).toBe(200);
    const badJson = await api('/api/settings.update', { headers: auth(), body: '{nope' });
    expect([badJson.status, ((await badJson.json()) as any).error.code]).toEqual([
      400,
      'STUDIO_INVALID_INPUT',
    ]);
    const badInput = await api('/api/settings.update', { headers: auth(), body: '{"theme":"neon"}' });
    expect([badInput.status, ((await badInput.json()) as any).error.code]).toEqual([
      400,
      'STUDIO_INVALID_INPUT',
    ]);
    const unknown = await api('/api/nope', { headers: auth(), body: '{}' });
    expect(unknown.status).toBe(404);
    const get = await api('/api/settings.get', { method: 'GET', headers: auth() });
    expect(get.status).toBe(405);
  });

  it('streams pushed events to a client with the token', async () => {
    const controller = new AbortController();
    const res = await fetch(`${host.origin}/api/events`, {
      headers: { authorization: `Bearer ${host.token}` },
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    await api('/api/settings.update', { headers: auth(), body: '{"theme":"dark"}' });
    let text = '';
    while (!text.includes('event: settings.changed')) text += (await reader.read()).value ?? '';
    controller.abort();
    expect(text).toMatch(/event: settings.changed\ndata: \{.*"theme":"dark"/);
  });

  it('serves the app with a strict CSP, and never a file outside it', async () => {
    const page = await fetch(`${host.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect((await fetch(`${host.origin}/assets/app.js`)).headers.get('content-type')).toContain('javascript');
    for (const path of ['/../../../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc/passwd']) {
      const text = await (await fetch(`${host.origin}${path}`)).text();
      expect(text).not.toContain('root:');
    }
  });
});
