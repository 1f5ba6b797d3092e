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
  page.on('response', (res) => {
    if (res.url().includes('/api/') && !res.url().endsWith('/api/events'))
      answers.push(res.text().catch(() => ''));
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
