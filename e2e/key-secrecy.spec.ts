import { expect, openStudio, test } from './studio-fixture';

const KEY = 'sk-e2e-secret-7f3a9c21d4b8e6f0';

test('a key saved through Settings never reaches the DOM, window storage, or any API answer or event', async ({
  page,
  studio,
}) => {
  // Every event main pushes during the test, read by a second client of the same API.
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

  const dom = await page.content();
  const inputs = await page.evaluate(() =>
    [...document.querySelectorAll('input, textarea')].map((e) => (e as HTMLInputElement).value),
  );
  const storage = await page.evaluate(() =>
    JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }),
  );
  controller.abort();
  const bodies = await Promise.all(answers);
  const eventText = await events;

  expect(bodies.length).toBeGreaterThan(5);
  expect(eventText).toContain('event: profiles.changed');
  for (const [where, text] of [
    ['DOM', dom],
    ['inputs', inputs.join('\n')],
    ['storage', storage],
    ['API answers', bodies.join('\n')],
    ['events', eventText],
  ] as const) {
    expect(text, where).not.toContain(KEY);
  }
  expect(bodies.join('\n')).toContain(KEY.slice(-4));
});

test.describe('a gateway that repeats the key in its errors', () => {
  const RT_KEY = 'sk-e2e-echoed-3b9d27c4e1f8a605';
  const KB_KEY = 'kb-e2e-echoed-8c1f4a6d2e9b7350';
  // The built-in sandbox of the studio these tests start repeats every key it rejects.
  test.beforeAll(() => {
    process.env.STUDIO_SANDBOX_ECHO_KEY = '1';
  });
  test.afterAll(() => {
    delete process.env.STUDIO_SANDBOX_ECHO_KEY;
  });

  test('the realtime and knowledge-base errors show the code, never the key', async ({ page, studio }) => {
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
    expect(await raw.text()).toContain(RT_KEY);

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

    const dom = await page.content();
    const bodies = (await Promise.all(answers)).join('\n');
    expect(dom).toContain('unAuthApiKey');
    for (const key of [RT_KEY, KB_KEY]) {
      expect(dom, 'DOM').not.toContain(key);
      expect(bodies, 'API answers').not.toContain(key);
    }
  });
});
