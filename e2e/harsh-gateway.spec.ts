import type { Page } from '@playwright/test';
import {
  expect,
  openScreen,
  pasteText,
  setSandboxFaults,
  promptsDraft,
  recordEvents,
  screenshot,
  test,
  type RunningStudio,
} from './studio-fixture';

// The studio against a gateway as harsh as the deployed ones (gateway-notes.md). Every test opens
// the screen first and then makes the change it expects to see: the screen must follow by itself.
const KEY = 'sk-sandbox-alice';

async function sandboxUrl(studio: RunningStudio): Promise<string> {
  const profiles = (await studio.call('profiles.list')) as { kind: string; baseUrl: string }[];
  return profiles.find((p) => p.kind === 'sandbox')!.baseUrl.replace(/\/+$/, '');
}

async function vanish(studio: RunningStudio, id: string): Promise<void> {
  const res = await fetch(`${await sandboxUrl(studio)}/_sandbox/batches/${id}/vanish`, { method: 'POST' });
  expect(res.status).toBe(200);
}

const draft = (name: string, prompts: string[]) => promptsDraft(`e2e-${name}`, name, prompts);

async function composeAndSubmit(page: Page, name: string, prompts: string[]): Promise<void> {
  await expect(page.getByTestId('new-row')).toBeVisible();
  await pasteText(page, '[data-testid="new-row"]', prompts.join('\n'));
  await page.getByTestId('task-name').fill(name);
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await page.getByTestId('submit-batch').click();
}

test('a submission in flight shows on Batches at once, and Compose keeps Submit off until it is known', async ({
  browser,
  studio,
}) => {
  // The answer to the create is held 20 s, four times the wait below: what shows, shows before it.
  await setSandboxFaults(studio, 'latecreate=#1,late_ms=20000');
  const batches = await browser.newPage();
  await openScreen(batches, studio, 'Batches');
  await expect(batches.getByText('No batches yet')).toBeVisible();

  const compose = await browser.newPage();
  await openScreen(compose, studio, 'Compose');
  await composeAndSubmit(compose, 'Late answer', ['late one', 'late two']);

  // The gateway has not answered yet: Batches already shows the submission, and says so.
  const submission = batches.getByTestId('submission');
  await expect(submission).toContainText('Late answer', { timeout: 5_000 });
  await expect(submission).toContainText('Sending…', { timeout: 5_000 });
  await expect(batches.getByText('No batches yet')).toBeHidden({ timeout: 5_000 });
  await expect(compose.getByTestId('submit-batch')).toBeDisabled({ timeout: 5_000 });
  // A reload (or another window) does not make the same draft sendable a second time.
  await compose.reload();
  await expect(compose.getByTestId('submit-batch')).toBeDisabled();

  // The answer arrives: the batch takes the submission's place, and Submit comes back.
  await expect(batches.locator('.batch-card')).toHaveCount(1, { timeout: 30_000 });
  await expect(submission).toHaveCount(0);
  await expect(compose.getByTestId('submit-batch')).toBeEnabled({ timeout: 30_000 });
});

test('a 503 BATCH_IMAGE_NOT_READY on create reads as the runtime not being ready, on Compose and on Batches', async ({
  browser,
  studio,
}) => {
  await setSandboxFaults(studio, 'not_ready=#1');
  const batches = await browser.newPage();
  await openScreen(batches, studio, 'Batches');
  await expect(batches.getByText('No batches yet')).toBeVisible();
  const page = await browser.newPage();
  await openScreen(page, studio, 'Compose');
  // Two lines: a paste of several lines makes rows.
  await composeAndSubmit(page, 'Not ready', ['one', 'two']);
  const notice = page.locator('[data-error-code="BATCH_IMAGE_NOT_READY"]');
  await expect(notice).toContainText('batch service is not ready (its runtime');
  await expect(notice).toContainText('HTTP status: 503');
  await expect(notice).not.toContainText('The results are not ready yet');

  // Batches, open all along, shows the refusal with the same explanation, the code and the request id.
  const refused = batches.getByTestId('submission');
  await expect(refused).toContainText('Not ready — Refused by the gateway');
  await expect(refused).toHaveAttribute('data-state', 'failed');
  const reason = refused.locator('[data-error-code="BATCH_IMAGE_NOT_READY"]');
  await expect(reason).toContainText('batch service is not ready (its runtime');
  await expect(reason).toContainText('HTTP status: 503');
  await expect(reason).toContainText('Request id:');
  await expect(reason).not.toContainText('The results are not ready yet');
  // Dismissed, it is gone, and stays gone after a reload.
  await refused.getByRole('button', { name: 'Dismiss' }).click();
  await expect(refused).toHaveCount(0);
  await expect(batches.getByText('No batches yet')).toBeVisible();
  await batches.reload();
  await expect(batches.getByText('No batches yet')).toBeVisible();
  await expect(refused).toHaveCount(0);
});

test('each download phase shows in turn on the open batch, ending in the library', async ({
  page,
  studio,
}) => {
  // Downloads start only when the test asks, once the screen is watching.
  await studio.call('settings.update', { autoDownload: false });
  const holder = await studio.call('batches.submit', { draft: draft('Holder', ['h']) });
  const phases = await studio.call('batches.submit', { draft: draft('Phases', ['a', 'b', 'c', 'd']) });
  await openScreen(page, studio, 'Batches');
  for (const id of [holder.batch.id, phases.batch.id])
    await expect(page.getByTestId(`batch-${id}`).getByTestId('batch-status')).toHaveText('Completed', {
      timeout: 60_000,
    });

  // The next request to the gateway, the holder's ZIP, stalls before its last bytes and keeps the
  // account's one download slot meanwhile; both of the open batch's ZIPs are then cut short, so
  // the item-by-item fallback runs.
  await setSandboxFaults(studio, 'slow=#1,slow_ms=12000,truncate=#2');
  const pushed = recordEvents(studio);
  await pushed.ready;
  await studio.call('batches.download', { id: holder.batch.id });
  await expect(page.getByTestId(`batch-${holder.batch.id}`).getByTestId('batch-download')).toHaveText(
    'Downloading…',
  );

  await page.getByRole('link', { name: 'Phases' }).click();
  const label = page.getByTestId('detail-download');
  await expect(label).toHaveText('Not downloaded');
  // Every text the label takes, as it takes it: what passes too fast to wait for is still recorded.
  await label.evaluate((el) => {
    const seen: string[] = [el.textContent ?? ''];
    (window as unknown as { seenLabels: string[] }).seenLabels = seen;
    new MutationObserver(() => {
      if (seen.at(-1) !== el.textContent) seen.push(el.textContent ?? '');
    }).observe(el, { childList: true, characterData: true, subtree: true });
  });
  await studio.call('batches.download', { id: phases.batch.id });
  // The holder still stalls: the open batch waits its turn, and says so rather than "Downloading".
  await expect(label).toHaveText('Waiting for a download slot');
  await expect(label).toHaveText('In the library', { timeout: 60_000 });
  pushed.stop();

  const seen = await page.evaluate(() => (window as unknown as { seenLabels: string[] }).seenLabels);
  const inOrder = (texts: string[], order: RegExp[]) => {
    let at = 0;
    for (const pattern of order) {
      const found = texts.findIndex((text, i) => i >= at && pattern.test(text));
      expect(found, `${pattern} in ${texts.join(' → ')}`).toBeGreaterThanOrEqual(at);
      at = found;
    }
  };
  inOrder(seen, [
    /^Not downloaded$/,
    /^Waiting for a download slot$/,
    /^Downloading image \d of 4$/,
    /^In the library$/,
  ]);
  // The fallback is never called "Verifying…" while it downloads item after item (each cut-short
  // ZIP before it was verified, and found broken).
  const item = (text: string) => /^Downloading image \d of 4$/.test(text);
  const during = seen.slice(seen.findIndex(item), seen.findLastIndex(item));
  expect(during.filter((text) => !item(text))).toEqual([]);

  // Verifying takes a few milliseconds on this machine: too brief to wait for on screen, so the
  // states main pushed for the batch (what every page renders from) show it in its place, after
  // the last download step and before the library.
  const states = pushed.events
    .filter((e) => e.event === 'batch.updated' && e.data.id === phases.batch.id)
    .map((e) => e.data.download.state as string)
    .filter((state, i, all) => state !== all[i - 1]);
  inOrder(states, [/^queued$/, /^downloading$/, /^verifying$/, /^done$/]);
  expect(states.slice(states.lastIndexOf('downloading'))).toEqual(['downloading', 'verifying', 'done']);
  const itemSteps = pushed.events.filter(
    (e) => e.event === 'download.progress' && e.data.batchId === phases.batch.id && e.data.phase === 'items',
  );
  expect(itemSteps.length).toBeGreaterThan(0);
});

test.describe('with a slower gateway', () => {
  test.use({ sandboxTimeScale: 15 });

  test('a batch deleted on the server reads as gone on its card and its badge, not running', async ({
    page,
    studio,
  }) => {
    const result = await studio.call('batches.submit', { draft: draft('Lost on the server', ['x', 'y']) });
    const id = result.batch.id as string;
    await openScreen(page, studio, 'Batches');
    const card = page.getByTestId(`batch-${id}`);
    await expect(card.getByTestId('batch-status')).toHaveText(/Queued|Running/);
    await vanish(studio, id);
    await expect(card.getByTestId('batch-status')).toHaveText('Gone from the server', { timeout: 30_000 });
    await card.getByRole('link', { name: 'Lost on the server' }).click();
    await expect(page.getByTestId('detail-status')).toHaveText('Gone from the server');
    await expect(page.getByTestId('detail-download')).toHaveText('Not downloaded');
    // The studio kept the prompts it sent.
    await expect(page.getByText('x', { exact: true })).toBeVisible();
  });
});

test('Refresh from server marks a deleted batch gone and adds one made by another client', async ({
  page,
  studio,
}) => {
  const ours = await studio.call('batches.submit', { draft: draft('Ours, then deleted', ['o']) });
  await openScreen(page, studio, 'Batches');
  const card = page.getByTestId(`batch-${ours.batch.id}`);
  await expect(card.getByTestId('batch-download')).toHaveText('In the library', { timeout: 60_000 });

  await vanish(studio, ours.batch.id);
  const made = await fetch(`${await sandboxUrl(studio)}/v1/images/batches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'imgvendor-3.1-flash-image',
      task_name: 'Made by another client',
      items: [{ custom_id: 'e1', prompt: 'elsewhere' }],
    }),
  });
  const elsewhere = (await made.json()) as { id: string };

  await page.getByRole('button', { name: 'Refresh from server' }).click();
  // Gone from the server, yet its folder is still in the library.
  await expect(card.getByTestId('batch-status')).toHaveText('Gone from the server');
  await expect(card.getByTestId('batch-download')).toHaveText('In the library');
  const theirs = page.getByTestId(`batch-${elsewhere.id}`);
  await expect(theirs).toContainText('Made by another client');
  // Found completed, it is downloaded by itself.
  await expect(theirs.getByTestId('batch-download')).toHaveText('In the library', { timeout: 60_000 });
});

test.describe('batches finishing together share the one download slot', () => {
  test.use({ sandboxTimeScale: 60 });

  test('Batches shows a batch waiting for its download slot and a batch gone from the server', async ({
    page,
    studio,
  }) => {
    await openScreen(page, studio, 'Batches');
    const lost = await studio.call('batches.submit', { draft: draft('Deleted on the server', ['gone']) });
    await vanish(studio, lost.batch.id);
    // Every answer now takes 12 s: the first download holds the account's one slot that long, and
    // the batches that finish beside it wait their turn.
    await setSandboxFaults(studio, 'slow=1,slow_ms=12000');
    const sent = await Promise.all(
      ['Spring catalogue', 'Autumn catalogue', 'Winter catalogue'].map((name) =>
        // Three different orders: the same content sent three times would be refused as a duplicate.
        studio.call('batches.submit', { draft: draft(name, [`${name} a`, `${name} b`]) }),
      ),
    );
    await expect(page.getByTestId(`batch-${lost.batch.id}`).getByTestId('batch-status')).toHaveText(
      'Gone from the server',
      { timeout: 60_000 },
    );
    const waiting = page.getByTestId('batch-download').filter({ hasText: 'Waiting for a download slot' });
    await expect(waiting.first()).toBeVisible({ timeout: 90_000 });
    // The list comes first on Batches: the waiting batch and the gone one are in view unscrolled.
    await expect(waiting.first()).toBeInViewport();
    await expect(page.getByTestId(`batch-${lost.batch.id}`)).toBeInViewport();
    await screenshot(page, 'batches-waiting-and-gone');
    await setSandboxFaults(studio, '');
    for (const id of sent.map((r) => r.batch.id as string))
      await expect(page.getByTestId(`batch-${id}`).getByTestId('batch-download')).toHaveText(
        'In the library',
        {
          timeout: 60_000,
        },
      );
  });
});
