import type { Page } from '@playwright/test';
import { expect, openStudio, test, type RunningStudio } from './studio-fixture';
import { echoedKeyForms as keyForms } from '../sandbox/key-echo';

const KEY = 'sk-e2e-secret-7f3a9c21d4b8e6f0';

/** Where a key could end up for a window or a script to read, by name, as text. */
interface Places {
  DOM: string;
  inputs: string;
  storage: string;
  'API answers': string;
  events: string;
}

/**
 * Starts recording every API answer the page gets and every event main pushes (on a second client
 * of the same API); `collect` then reads them with the DOM, the form fields and window storage
 * (localStorage, sessionStorage and the names of IndexedDB databases).
 */
function watchForKeys(
  page: Page,
  studio: RunningStudio,
): { collect(): Promise<Places & { answers: number }> } {
  const controller = new AbortController();
  const events = fetch(`${studio.origin}/api/events`, {
    headers: { authorization: `Bearer ${studio.token}` },
    signal: controller.signal,
  }).then(async (res) => {
    let text = '';
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
    } catch {
      // aborted at the end of the test
    }
    return text;
  });

  const answers: Promise<string>[] = [];
  // Only answers whose body has fully arrived: the event stream never ends, so it is read apart.
  page.on('requestfinished', (req) => {
    if (req.url().includes('/api/') && !req.url().endsWith('/api/events'))
      answers.push(
        req
          .response()
          .then((res) => res?.text() ?? '')
          .catch(() => ''),
      );
  });

  return {
    async collect() {
      const dom = await page.content();
      const inputs = await page.evaluate(() =>
        [...document.querySelectorAll('input, textarea')].map((e) => (e as HTMLInputElement).value),
      );
      const storage = await page.evaluate(async () =>
        JSON.stringify({
          local: { ...localStorage },
          session: { ...sessionStorage },
          indexedDB: (await indexedDB.databases()).map((db) => db.name),
        }),
      );
      controller.abort();
      const bodies = await Promise.all(answers);
      return {
        DOM: dom,
        inputs: inputs.join('\n'),
        storage,
        'API answers': bodies.join('\n'),
        events: await events,
        answers: bodies.length,
      };
    },
  };
}

function expectNoKey(places: Places, keys: string[]): void {
  for (const where of ['DOM', 'inputs', 'storage', 'API answers', 'events'] as const) {
    for (const key of keys) {
      for (const [how, form] of keyForms(key))
        expect(places[where], `${where}: ${key} ${how}`).not.toContain(form);
    }
  }
}

test('a key saved through Settings never reaches the DOM, window storage, or any API answer or event', async ({
  page,
  studio,
}) => {
  const watch = watchForKeys(page, studio);

  await openStudio(page, studio);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByTestId('add-profile').click();
  await page.getByTestId('profile-name').fill('Production');
  await page.getByTestId('profile-baseUrl').fill(studio.origin.replace(/:\d+$/, ':9'));
  await page.getByTestId('profile-gatewayKey').fill(KEY);
  await page.getByTestId('profile-kbKey').fill(`${KEY}-kb`);
  await page.getByTestId('profile-save').click();

  const card = page.locator('[data-testid^="profile-p_"]');
  await expect(card).toContainText(`Key set, ending in ${KEY.slice(-4)}`);
  await card.getByRole('button', { name: 'Use this profile' }).click();
  await expect(page.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'error');
  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByRole('alert').first()).toContainText('NETWORK_ERROR');
  await card.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.reload();
  await expect(page.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'error');

  const places = await watch.collect();
  expect(places.answers).toBeGreaterThan(5);
  expect(places.events).toContain('event: profiles.changed');
  expectNoKey(places, [KEY, `${KEY}-kb`]);
  expect(places['API answers']).toContain(KEY.slice(-4));
});

test.describe('a gateway that repeats the key in its errors', () => {
  // "/", "+" and "=" make the URL-encoded form differ from the key, so each form is checked on its own.
  const RT_KEY = 'sk-e2e/echoed+3b9d27c4=e1f8a605';
  const KB_KEY = 'kb-e2e/echoed+8c1f4a6d=2e9b7350';
  // The built-in sandbox of the studio these tests start repeats every key it rejects.
  test.beforeAll(() => {
    process.env.STUDIO_SANDBOX_ECHO_KEY = '1';
  });
  test.afterAll(() => {
    delete process.env.STUDIO_SANDBOX_ECHO_KEY;
  });

  test('the realtime and knowledge-base errors show the code, never the key', async ({ page, studio }) => {
    const watch = watchForKeys(page, studio);
    await openStudio(page, studio);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Realtime' }).click();
    await expect(page.getByTestId('rt-model')).toHaveValue('imgvendor-3.1-flash-image');

    const [sandbox] = await studio.call('profiles.list');
    await studio.call('profiles.save', {
      id: sandbox.id,
      name: sandbox.name,
      baseUrl: sandbox.baseUrl,
      defaultKbId: 'kb-docs',
      defaultAppId: 'app-sandbox',
      gatewayKey: RT_KEY,
      kbKey: KB_KEY,
    });
    // The sandbox does repeat it: what the studio shows is what it scrubbed.
    const raw = await fetch(`${sandbox.baseUrl}/v1beta/models`, {
      headers: { 'x-imgvendor-api-key': RT_KEY },
    });
    const rawText = await raw.text();
    for (const [how, form] of keyForms(RT_KEY)) expect(rawText, how).toContain(form);
    expect(raw.headers.get('x-debug-key')).toBe(RT_KEY);

    await page.getByTestId('rt-prompt').fill('A lighthouse at dusk');
    await page.getByTestId('rt-generate').click();
    const job = page.getByTestId('rt-job').first();
    await expect(job).toHaveAttribute('data-state', 'failed');
    await expect(job.getByRole('alert')).toHaveAttribute('data-error-code', 'UNAUTHENTICATED');
    await expect(job.getByRole('alert')).toContainText(/Request id: \S+/);

    await nav.getByRole('link', { name: 'Knowledge base' }).click();
    await page.getByRole('button', { name: 'Paste' }).click();
    await page
      .getByLabel('One row per line: question, a Tab, then the answer.')
      .fill('What glaze do we use?\tCeladon.');
    await page.getByTestId('kb-id').focus();
    await expect(page.getByTestId('kb-preview-count')).toContainText(/1 of 1 rows?\b/);
    await page.getByTestId('kb-upload').click();
    const push = page.getByTestId('kb-push').first();
    await expect(push).toHaveAttribute('data-state', 'refused');
    await expect(push.getByRole('alert')).toHaveAttribute('data-error-code', 'unAuthApiKey');
    await page.getByTestId('kb-query').fill('glaze');
    await page.getByTestId('kb-search').click();
    await expect(page.getByRole('region', { name: 'Search tester' }).getByRole('alert')).toHaveAttribute(
      'data-error-code',
      'unAuthApiKey',
    );
    const indicator = page.getByTestId('connection-indicator');
    await indicator.getByTestId('connection-details').click();

    const places = await watch.collect();
    expect(places.DOM).toContain('unAuthApiKey');
    // The failures did pass through the event stream, with the gateway's words masked.
    expect(places.events).toMatch(/event: realtime\.updated\ndata: .*UNAUTHENTICATED/);
    expect(places.events).toContain('event: kb.pushProgress');
    expect(places.events).toMatch(/received as •+/);
    expectNoKey(places, [RT_KEY, KB_KEY]);
  });
});
