import type { Page } from '@playwright/test';
import {
  batchesAtSandbox,
  expect,
  gotoCompose,
  openScreen,
  pasteText,
  promptsDraft,
  setSandboxFaults,
  test,
} from './studio-fixture';

// Exactly once, through the screens: every paid click is counted where the money is, at the sandbox
// gateway, on a fresh studio each time.
const SECOND = 'imgvendor-3-pro-image';

async function draftOf(page: Page, name: string, prompts: string[]): Promise<void> {
  await pasteText(page, '[data-testid="new-row"]', prompts.join('\n'));
  await page.getByTestId('task-name').fill(name);
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
}

test('a double click on Submit makes one batch', async ({ page, studio }) => {
  await gotoCompose(page, studio);
  await draftOf(page, 'Lamps', ['A brass lamp', 'A paper lamp', 'A glass lamp']);
  await page.getByTestId('submit-batch').dblclick();
  await expect(page.getByTestId('submit-result')).toContainText('Batch created');
  // Nothing else is on its way: the button comes back, and no question was raised.
  await expect(page.getByTestId('submit-batch')).toBeEnabled();
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  expect(await batchesAtSandbox(studio)).toBe(1);
});

test('a triple click on a two-model run makes two batches', async ({ page, studio }) => {
  await gotoCompose(page, studio);
  await draftOf(page, 'Rugs', ['A wool rug', 'A jute rug']);
  await page.getByTestId(`run-model-${SECOND}`).check();
  await page.getByTestId('submit-batch').click({ clickCount: 3 });
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-message')).toContainText('This makes 2 batches');
  await dialog.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('submit-result')).toContainText('2 batches created');
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  expect(await batchesAtSandbox(studio)).toBe(2);
});

test('a double click on Retry failed makes one retry batch', async ({ page, studio }) => {
  const { batch } = await studio.call('batches.submit', {
    draft: promptsDraft('chairs', 'Chairs', ['An oak chair', 'A broken chair [fail]']),
  });
  for (let i = 0; i < 300 && !(await studio.call('batches.get', { id: batch.id })).terminal; i++)
    await new Promise((r) => setTimeout(r, 100));
  await openScreen(page, studio, 'Batches');
  await page.getByRole('link', { name: 'Chairs', exact: true }).click();
  await page.getByTestId('action-retry').dblclick();
  await expect(page.getByRole('heading', { name: 'Chairs (retry)' })).toBeVisible();
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  expect(await batchesAtSandbox(studio)).toBe(2);
});

test('two windows on one draft: one batch, and the other window says it is being sent', async ({
  page,
  studio,
}) => {
  await gotoCompose(page, studio);
  await draftOf(page, 'Bowls', ['A stone bowl', 'A wooden bowl']);
  const other = await page.context().newPage();
  await gotoCompose(other, studio);
  await expect(other.getByTestId('task-name')).toHaveValue('Bowls');

  // The gateway holds its answer for a while: the second window learns at once that the draft is
  // on its way, and its Submit turns off and says why.
  await setSandboxFaults(studio, 'latecreate=#1,late_ms=4000');
  await page.getByTestId('submit-batch').click();
  await expect(other.getByTestId('sent-before')).toContainText('Being sent as “Bowls”');
  await expect(other.getByTestId('submit-batch')).toBeDisabled();
  await expect(page.getByTestId('submit-result')).toContainText('Batch created', { timeout: 15_000 });
  await expect(other.getByTestId('sent-before')).toContainText('Sent as “Bowls”');
  await expect(other.getByTestId('submit-batch')).toBeEnabled();
  expect(await batchesAtSandbox(studio)).toBe(1);

  // Both press Submit together on content already sent: each is asked, neither sends unasked.
  await Promise.all([page.getByTestId('submit-batch').click(), other.getByTestId('submit-batch').click()]);
  for (const p of [page, other]) {
    const dialog = p.getByTestId('confirm-dialog');
    await expect(dialog.getByTestId('confirm-message')).toContainText('This draft was sent as “Bowls”');
    await dialog.getByTestId('confirm-dismiss').click();
  }
  expect(await batchesAtSandbox(studio)).toBe(1);
});

test('two windows pressing Submit together on a new draft make one batch', async ({ page, studio }) => {
  await gotoCompose(page, studio);
  await draftOf(page, 'Cups', ['A tin cup', 'A clay cup']);
  const other = await page.context().newPage();
  await gotoCompose(other, studio);
  await expect(other.getByTestId('task-name')).toHaveValue('Cups');
  await Promise.all([page.getByTestId('submit-batch').click(), other.getByTestId('submit-batch').click()]);
  // One window made the batch; the other was told, in words or with the question, why it did not.
  const count = async (pick: (p: Page) => ReturnType<Page['locator']>) =>
    (await pick(page).count()) + (await pick(other).count());
  await expect.poll(() => count((p) => p.getByTestId('submit-result'))).toBe(1);
  await expect
    .poll(() =>
      count((p) =>
        p.locator('[data-error-code="STUDIO_SEND_IN_PROGRESS"]').or(p.getByTestId('confirm-dialog')),
      ),
    )
    .toBe(1);
  expect(await batchesAtSandbox(studio)).toBe(1);
});

test('a confirmed resend does send, once', async ({ page, studio }) => {
  await gotoCompose(page, studio);
  await draftOf(page, 'Jars', ['A honey jar', 'A jam jar']);
  await page.getByTestId('submit-batch').click();
  await expect(page.getByTestId('submit-result')).toContainText('Batch created');
  await page.getByTestId('submit-batch').dblclick();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-message')).toContainText('This draft was sent as “Jars”');
  await dialog.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('submit-result')).toContainText('Batch created');
  await expect(page.getByTestId('submit-batch')).toBeEnabled();
  expect(await batchesAtSandbox(studio)).toBe(2);
});

test('through the local API, as a script would: concurrent calls make what the rule allows', async ({
  studio,
}) => {
  const settle = (calls: Promise<unknown>[]) => Promise.allSettled(calls);
  const draft = promptsDraft('api-vases', 'API vases', ['A vase', 'An urn', 'A jar']);
  // 8 concurrent submits of one draft: one batch.
  await settle(Array.from({ length: 8 }, () => studio.call('batches.submit', { draft })));
  expect(await batchesAtSandbox(studio)).toBe(1);
  // The same content under 8 draft ids at once: still that one batch, none more.
  await settle(
    Array.from({ length: 8 }, (_, i) =>
      studio.call('batches.submit', { draft: { ...draft, id: `copy-${i}` } }),
    ),
  );
  expect(await batchesAtSandbox(studio)).toBe(1);
  // 6 concurrent runs of new content on two models, each with its own run id: two batches.
  const run = promptsDraft('api-bowls', 'API bowls', ['A bowl', 'A dish']);
  await settle(
    Array.from({ length: 6 }, (_, i) =>
      studio.call('batches.submitRun', {
        runId: `run-api-0000${i}`,
        draft: run,
        models: [run.model, SECOND],
      }),
    ),
  );
  expect(await batchesAtSandbox(studio)).toBe(3);
  // 6 concurrent retries of one batch's one failed item: one retry batch.
  const { batch } = await studio.call('batches.submit', {
    draft: promptsDraft('api-chairs', 'API chairs', ['A chair', 'A stool [fail]']),
  });
  for (let i = 0; i < 300 && !(await studio.call('batches.get', { id: batch.id })).terminal; i++)
    await new Promise((r) => setTimeout(r, 100));
  const retries = await settle(
    Array.from({ length: 6 }, () => studio.call('batches.retryFailed', { id: batch.id })),
  );
  expect(await batchesAtSandbox(studio)).toBe(5);
  // The refused ones were told why, in the guard's words, naming the earlier send.
  const refusals = retries.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
  expect(refusals).toHaveLength(5);
  for (const reason of refusals) expect(reason).toMatch(/STUDIO_SEND_IN_PROGRESS|STUDIO_SENT_BEFORE/);
  expect(refusals.join()).toContain('API chairs (retry)');
});

test('a double click on Generate queues one realtime image', async ({ page, studio }) => {
  await openScreen(page, studio, 'Realtime');
  await page.getByTestId('rt-prompt').fill('A single brass bell');
  await page.getByTestId('rt-generate').dblclick();
  await expect(page.getByTestId('rt-job').first()).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(page.getByTestId('rt-generate')).toBeEnabled();
  expect(await studio.call('realtime.jobs')).toHaveLength(1);
  await expect(page.getByTestId('rt-job')).toHaveCount(1);
});
