import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  batchInLibrary,
  dropFiles,
  expect,
  gotoCompose,
  pngBytes,
  openStudio,
  pasteText,
  setSandboxFaults,
  test,
  type RunningStudio,
} from './studio-fixture';
import { promptsDraft } from '../src-main/test/helpers/prompts-draft';

/** Clicks, answers the confirmation the click raises (the studio's own dialog), and returns what it asked. */
async function confirmAfter(page: Page, click: () => Promise<void>, accept: boolean): Promise<string> {
  await click();
  const dialog = page.getByRole('dialog', { name: 'Please confirm' });
  await expect(dialog).toBeVisible();
  const message = await dialog.getByTestId('confirm-message').innerText();
  await dialog.getByRole('button', { name: accept ? 'OK' : 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  return message;
}

test('a submit is confirmed in view; sending the same draft again asks first, even after a reload', async ({
  page,
  studio,
}) => {
  await gotoCompose(page, studio);
  await pasteText(page, '[data-testid="new-row"]', 'Teapot on slate\nTeapot on oak');
  await page.getByTestId('task-name').fill('Teapots');
  await page.getByTestId('submit-batch').click();
  const result = page.getByTestId('submit-result');
  await expect(result).toBeInViewport();
  await expect(result).toContainText('Batch created');
  await expect(result.getByRole('button', { name: 'View batch' })).toBeInViewport();

  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await page.reload();
  await expect(page.getByTestId('sent-before')).toContainText('Sent as “Teapots”');
  const asked = await confirmAfter(page, () => page.getByTestId('submit-batch').click(), false);
  expect(asked).toMatch(/This draft was sent as “Teapots” .* Send it again/);
  expect(await studio.call('batches.list')).toHaveLength(1);

  await confirmAfter(page, () => page.getByTestId('submit-batch').click(), true);
  await expect(page.getByTestId('submit-result')).toBeVisible();
  expect(await studio.call('batches.list')).toHaveLength(2);
});

test('a row needing attention is one click away, and its message is not under the totals bar', async ({
  page,
  studio,
}) => {
  await gotoCompose(page, studio);
  const long = 'x'.repeat(8100);
  const lines = Array.from({ length: 40 }, (_, i) => (i === 24 || i === 34 ? long : `Vase ${i + 1}`));
  await pasteText(page, '[data-testid="new-row"]', lines.join('\n'));
  const go = page.getByTestId('go-to-invalid');
  await expect(go).toHaveText('2 rows need attention');

  await go.click();
  await expect(page.getByRole('textbox', { name: 'Row 25 Prompt' })).toBeFocused();
  const issues = page.getByTestId('row-issues-24');
  await expect(issues).toBeInViewport();
  const bar = (await page.getByTestId('totals-bar').boundingBox())!;
  await expect
    .poll(async () => (await issues.boundingBox())!.y + (await issues.boundingBox())!.height)
    .toBeLessThanOrEqual(bar.y);

  await go.click();
  await expect(page.getByRole('textbox', { name: 'Row 35 Prompt' })).toBeFocused();
  await go.click();
  await expect(page.getByRole('textbox', { name: 'Row 25 Prompt' })).toBeFocused();
});

test('a drop on a row ends the highlight; after a row’s “+”, a drop on the grid goes to every row', async ({
  page,
  studio,
}) => {
  await gotoCompose(page, studio);
  await pasteText(page, '[data-testid="new-row"]', 'Bowl one\nBowl two\nBowl three');
  const row1 = page.getByTestId('grid-row-0');
  await dropFiles(page, '[data-testid="grid-row-0"]', [
    { name: 'glaze.png', type: 'image/png', bytes: await pngBytes('#aa3300', 64) },
  ]);
  await expect(row1.locator('.ref-thumb')).toHaveCount(1);
  await expect(page.locator('.compose.drop-active')).toHaveCount(0);

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Add reference images to row 2' }).click();
  await (
    await chooser
  ).setFiles({ name: 'rim.png', mimeType: 'image/png', buffer: Buffer.from(await pngBytes('#0033aa', 64)) });
  await expect(page.getByTestId('grid-row-1').locator('.ref-thumb')).toHaveCount(1);

  await dropFiles(page, '[data-testid="grid-body"]', [
    { name: 'light.png', type: 'image/png', bytes: await pngBytes('#33aa00', 64) },
  ]);
  await expect(page.locator('.shared-refs .ref-thumb')).toHaveCount(1);
  await expect(page.getByTestId('grid-row-1').locator('.ref-thumb')).toHaveCount(1);
  await expect(page.locator('.compose.drop-active')).toHaveCount(0);
});

test('a batch in the library is not offered “Download now”; downloading again asks and says what it did', async ({
  page,
  studio,
}) => {
  await openStudio(page, studio);
  await batchInLibrary(studio, 'jugs', 'Jugs', ['A jug', 'Two jugs']);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Batches' })
    .click();
  await page.getByRole('link', { name: 'Jugs' }).click();
  await expect(page.getByTestId('detail-download')).toHaveText('In the library');
  await expect(page.getByTestId('action-download')).toHaveCount(0);

  const asked = await confirmAfter(page, () => page.getByTestId('action-download-again').click(), true);
  expect(asked).toContain('already in the library (2 images)');
  await expect(page.getByTestId('downloaded-again')).toContainText('Downloaded again: 2 images');
});

test('after switching profile, Batches shows only the new profile’s batches, and a studio error is the studio’s', async ({
  page,
  studio,
}) => {
  await openStudio(page, studio);
  await batchInLibrary(studio, 'cups', 'Alice cups', ['A cup']);
  const [alice] = await studio.call('batches.list');
  const info = await studio.call('app.info');
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Batches' })
    .click();
  await expect(page.getByTestId(`batch-${alice.id}`)).toBeVisible();
  await expect(page.getByTestId('costs')).toContainText('1 batch ·');

  const bob = await studio.call('profiles.save', {
    name: 'Bob',
    baseUrl: info.sandboxUrl,
    gatewayKey: 'sk-sandbox-bob',
  });
  await studio.call('profiles.activate', { id: bob.id });
  await expect(page.getByTestId(`batch-${alice.id}`)).toHaveCount(0);
  await expect(page.getByText('No batches yet')).toBeVisible();
  await expect(page.getByTestId('costs')).toContainText('0 batches ·');

  // Alice's batch, opened while Bob is active, is explained as the studio's own finding.
  await page.evaluate((id) => (window.location.hash = `#/batches/${id}`), alice.id);
  const notice = page.locator('[data-error-code="STUDIO_BATCH_NOT_FOUND"]');
  await expect(notice).toContainText('not one of the active profile’s batches');
  await expect(notice).not.toContainText('The gateway reported');
});

/** What the studio has on disk, read the way a support person would look at the data folder. */
function readStored(studio: RunningStudio, ...path: string[]): any {
  try {
    return JSON.parse(readFileSync(join(studio.dataDir, ...path), 'utf8'));
  } catch {
    return undefined;
  }
}

function nav(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name }).click();
}

test('after switching profile, Realtime and Knowledge base show only the new profile’s work, even as the old one’s finishes', async ({
  page,
  studio,
}) => {
  await openStudio(page, studio);
  const info = await studio.call('app.info');
  const alice = (await studio.call('settings.get')).activeProfileId;
  const bob = await studio.call('profiles.save', {
    name: 'Bob',
    baseUrl: info.sandboxUrl,
    gatewayKey: 'sk-sandbox-bob',
    kbBaseUrl: info.sandboxUrl,
    kbKey: 'kb-sandbox',
    defaultAppId: 'app-sandbox',
    defaultKbId: 'kb-styles',
  });
  // Slow answers keep Alice's work going after the switch, so its progress arrives while Bob is active.
  await setSandboxFaults(studio, 'slow=1,slow_ms=1500');

  await nav(page, 'Realtime');
  const teapot = await studio.call('realtime.generate', {
    prompt: 'Alice’s teapot',
    model: 'imgvendor-3.1-flash-image',
  });
  await expect(page.getByTestId('rt-job').filter({ hasText: 'Alice’s teapot' })).toBeVisible();
  await studio.call('profiles.activate', { id: bob.id });
  await expect(page.getByTestId('rt-job')).toHaveCount(0);
  await expect
    .poll(() => readStored(studio, 'realtime', 'jobs.json')?.find((j: any) => j.id === teapot.id)?.state)
    .toBe('done');
  await setSandboxFaults(studio, '');
  // Events arrive in order: once Bob's own job shows as done, Alice's last event has been heard too.
  await studio.call('realtime.generate', { prompt: 'Bob’s kettle', model: 'imgvendor-3.1-flash-image' });
  await expect(page.getByTestId('rt-job').filter({ hasText: 'Bob’s kettle' })).toHaveAttribute(
    'data-state',
    'done',
  );
  await expect(page.getByTestId('rt-job')).toHaveCount(1);

  await studio.call('profiles.activate', { id: alice });
  await nav(page, 'Knowledge base');
  await setSandboxFaults(studio, 'slow=1,slow_ms=1500');
  const rows = Array.from({ length: 4 }, (_, i) => ({ q: `Alice’s rule ${i}`, a: `Answer ${i}` }));
  const upload = await studio.call('kb.push', { rows, mode: 'index', chunkSize: 1 });
  await expect(page.getByTestId('kb-push')).toHaveCount(1);
  await studio.call('profiles.activate', { id: bob.id });
  await expect(page.getByTestId('kb-push')).toHaveCount(0);
  await expect.poll(() => readStored(studio, 'kb', 'pushes', `${upload.id}.json`)?.state).toBe('done');
  await setSandboxFaults(studio, '');
  await studio.call('kb.push', { rows: [{ q: 'Bob’s rule', a: 'Amber' }], mode: 'index' });
  await expect(page.getByTestId('kb-push').filter({ hasText: 'kb-styles' })).toHaveAttribute(
    'data-state',
    'done',
  );
  await expect(page.getByTestId('kb-push')).toHaveCount(1);

  // Back to Alice: her upload and her job are hers, finished, and Bob's are not listed.
  await studio.call('profiles.activate', { id: alice });
  await expect(page.getByTestId('kb-push')).toHaveCount(1);
  await expect(page.getByTestId('kb-push')).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('kb-push')).toContainText('kb-docs');
  await nav(page, 'Realtime');
  await expect(page.getByTestId('rt-job')).toHaveCount(1);
  await expect(page.getByTestId('rt-job')).toContainText('Alice’s teapot');
});

test('when a batch’s ZIP is refused and the one-by-one fallback fails too, its page gives both reasons in plain words', async ({
  page,
  studio,
}) => {
  // The gateway's storage answers every image with its error page: in the ZIP, and one by one.
  await setSandboxFaults(studio, 'badimage=1');
  await openStudio(page, studio);
  const draft = promptsDraft('bowls', 'Broken bowls', ['A bowl', 'Two bowls'], 'bowl-');
  const { batch } = await studio.call('batches.submit', { draft });
  await nav(page, 'Batches');
  await page.getByRole('link', { name: 'Broken bowls' }).click();

  const problem = page.getByTestId('download-problem');
  await expect(problem).toHaveText(
    new RegExp(
      [
        'The ZIP archive was refused:',
        'failed the studio’s checks',
        'STUDIO_ZIP_REJECTED',
        'Downloading the images one by one failed too:',
        'not a readable PNG, JPEG or WebP file',
        'STUDIO_IMAGE_INVALID',
      ].join('.*'),
      's',
    ),
  );
  // Neither what the gateway sent nor a parser's or a program's words reach the page.
  const shown = await problem.innerText();
  expect(shown).not.toMatch(/DOCTYPE|<html|502 Bad Gateway|central directory|signature|Error:|\.js:\d+/i);
  expect((await studio.call('batches.get', { id: batch.id })).download.state).not.toBe('done');
});

test.describe('at real speed', () => {
  test.use({ sandboxTimeScale: 1 });

  test('cancel asks and names the hold; the cancelled batch’s items say so and cost nothing', async ({
    page,
    studio,
  }) => {
    await gotoCompose(page, studio);
    await pasteText(page, '[data-testid="new-row"]', 'Plate one\nPlate two');
    await page.getByTestId('task-name').fill('Plates');
    await page.getByTestId('submit-batch').click();
    await page.getByTestId('submit-result').getByRole('button', { name: 'View batch' }).click();
    await expect(page.getByTestId('detail-status')).toHaveText('Queued');
    await expect(page.getByTestId('hold-help')).toContainText('holds a margin above the estimate');

    const [batch] = await studio.call('batches.list');
    const hold = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(
      batch.holdAmount,
    );
    const dismissed = await confirmAfter(page, () => page.getByTestId('action-cancel').click(), false);
    expect(dismissed).toContain(`the hold of ${hold} goes back to your balance`);
    await expect(page.getByTestId('detail-status')).toHaveText('Queued');

    await confirmAfter(page, () => page.getByTestId('action-cancel').click(), true);
    await expect(page.getByTestId('detail-status')).toHaveText('Cancelled');
    await expect(page.getByTestId('detail-costs')).toContainText(`Hold ${hold} (released)`);
    await expect(page.locator('.item-row.status-cancelled')).toHaveCount(2);
    await expect(page.locator('.item-row.status-pending')).toHaveCount(0);

    await page.getByRole('button', { name: /All batches/ }).click();
    await expect(page.getByTestId('costs')).toContainText(
      '1 batch · estimate 0.00 · held 0.00 · actual 0.00',
    );
  });
});
