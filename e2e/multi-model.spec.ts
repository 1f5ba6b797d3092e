import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { batchesAtSandbox, expect, gotoCompose, pasteText, screenshot, test } from './studio-fixture';
import { soleMarksOnDisk } from '../src-main/test/helpers/marks-on-disk';

// One draft on two models, submitted once: one batch per model at the sandbox, as one run, that a
// replayed request does not repeat; Batches groups it; the Library compares a row across models.
const FIRST = 'imgvendor-3.1-flash-image';
const SECOND = 'imgvendor-3-pro-image';

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: /Main navigation|主导航/ }).getByRole('link', { name });

test('a two-model run is sent once, shown as one run, and compared across models in the Library', async ({
  page,
  studio,
}) => {
  await gotoCompose(page, studio);
  await expect(page.getByTestId('model-select')).toHaveValue(FIRST);
  await page.getByTestId('task-name').fill('Vases on two models');
  await pasteText(page, '[data-testid="new-row"]', 'A tall blue vase\nA short red vase');

  // One model: the plain submit, as before.
  await expect(page.getByTestId('submit-batch')).toHaveText('Submit batch');
  await expect(page.getByTestId('run-totals')).toHaveCount(0);

  await page.getByTestId(`run-model-${SECOND}`).check();
  await expect(page.getByTestId('submit-batch')).toHaveText('Submit 2 batches');
  const totals = page.getByTestId('run-totals');
  await expect(totals.getByTestId('run-model-total')).toHaveCount(2);
  await expect(totals.locator(`[data-model="${FIRST}"]`)).toContainText(`${FIRST}: 2 images`);
  await expect(totals.locator(`[data-model="${SECOND}"]`)).toContainText(`${SECOND}: 2 images`);
  await expect(totals.getByTestId('run-total')).toContainText('Run total: 2 batches · 4 images');
  await screenshot(page, 'multi-model-compose-en');
  await page.getByTestId('language-select').selectOption('zh-CN');
  await expect(page.getByTestId('submit-batch')).toHaveText('提交 2 个批次');
  await expect(totals.getByTestId('run-total')).toContainText('运行合计');
  await screenshot(page, 'multi-model-compose-zh-CN');
  await page.getByTestId('language-select').selectOption('en');
  // The window is in English again (the choice goes through main) before Submit is pressed: the
  // question is asked in the language on screen at the click.
  await expect(page.getByTestId('submit-batch')).toHaveText('Submit 2 batches');

  // The window's own request, kept to be sent again below.
  let sent: string | undefined;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/batches.submitRun')) sent = r.postData() ?? undefined;
  });
  await page.getByTestId('submit-batch').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-message')).toContainText('This makes 2 batches, one per model');
  await dialog.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('submit-result')).toContainText('2 batches created, one per model');
  expect(await batchesAtSandbox(studio)).toBe(2);
  const made = (await studio.call('batches.list')) as { id: string; model: string; runId: string | null }[];
  expect(made.map((b) => b.model).sort()).toEqual([FIRST, SECOND].sort());
  expect(new Set(made.map((b) => b.runId)).size).toBe(1);
  expect(made[0]!.runId).toMatch(/^run-/);

  // The same request again (a replayed click, a retried answer): nothing new at the gateway.
  expect(sent).toBeDefined();
  const replay = await fetch(`${studio.origin}/api/batches.submitRun`, {
    method: 'POST',
    headers: { authorization: `Bearer ${studio.token}`, 'content-type': 'application/json' },
    body: sent,
  });
  expect(replay.ok).toBe(true);
  const replayed = (await replay.json()) as { result: { results: { batch?: { id: string } }[] } };
  expect(replayed.result.results.map((r) => r.batch?.id).sort()).toEqual(made.map((b) => b.id).sort());
  expect(await batchesAtSandbox(studio)).toBe(2);
  expect(await studio.call('batches.list')).toHaveLength(2);

  // Batches: one run, both models with their progress, each batch still its own card.
  await nav(page, 'Batches').click();
  const run = page.getByTestId('run-group');
  await expect(run).toHaveCount(1);
  await expect(run.getByRole('heading', { name: 'Run: Vases on two models' })).toBeVisible();
  await expect(run.getByTestId('run-model-progress')).toHaveCount(2);
  await expect(run).toContainText('2 models:');
  for (const model of [FIRST, SECOND])
    await expect(run.locator(`[data-testid="run-model-progress"][data-model="${model}"]`)).toBeVisible();
  for (const b of made) await expect(run.getByTestId(`batch-${b.id}`)).toBeVisible();
  await expect(run.getByTestId('run-total')).toContainText('Total: estimate');
  await run.scrollIntoViewIfNeeded();
  await screenshot(page, 'batches-run-en');
  await page.getByTestId('language-select').selectOption('zh-CN');
  await expect(run.getByTestId('run-model-progress')).toHaveCount(2);
  await expect(run.locator('h2')).toHaveText('运行：Vases on two models');
  await screenshot(page, 'batches-run-zh-CN');
  await page.getByTestId('language-select').selectOption('en');
  await expect(run.getByRole('heading', { name: 'Run: Vases on two models' })).toBeVisible();

  // Both downloaded, then compared in the Library.
  for (const b of made)
    await expect
      .poll(async () => (await studio.call('batches.get', { id: b.id })).download.state, { timeout: 90_000 })
      .toBe('done');
  await nav(page, 'Library').click();
  const cells = page.getByTestId('library-cell');
  await expect(cells).toHaveCount(4);
  // Focusing an image of the run offers the comparison in More, and moves nothing on screen: the
  // second click of a double click lands where the first did.
  const before = await cells.nth(0).boundingBox();
  await cells.nth(0).click();
  await page.getByTestId('library-more').click();
  await expect(page.getByTestId('library-compare-across')).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await cells.nth(0).boundingBox()).toEqual(before);
  await cells.nth(0).dblclick();
  await expect(page.getByTestId('lightbox')).toBeVisible();
  await page.getByTestId('lightbox').getByTestId('compare-across').click();
  const view = page.getByTestId('compare-across-view');
  const takes = view.getByTestId('across-take');
  await expect(takes).toHaveCount(2);
  expect((await takes.evaluateAll((els) => els.map((e) => e.getAttribute('data-model')))).sort()).toEqual(
    [FIRST, SECOND].sort(),
  );
  await expect(view.getByText(FIRST, { exact: true })).toBeVisible();
  await expect(view.getByText(SECOND, { exact: true })).toBeVisible();
  await screenshot(page, 'compare-across-models-en');

  // P on the focused one picks it; the other becomes an alternative.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('p');
  await expect(takes.nth(1)).toHaveAttribute('data-mark', 'picked');
  await expect(takes.nth(0)).toHaveAttribute('data-mark', 'alternative');
  await expect(takes.nth(0)).toContainText('Alternative');
  const pickedModel = await takes.nth(1).getAttribute('data-model');
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('lightbox')).toHaveCount(0);

  await expect(page.locator('[data-testid="library-cell"][data-mark="picked"]')).toHaveCount(1);
  const alternative = page.locator('[data-testid="library-cell"][data-mark="alternative"]');
  await expect(alternative).toHaveCount(1);
  await expect(alternative).toContainText('Alternative');
  // What is on disk says the same: each batch folder's marks file holds its model's mark.
  const { libraryDir } = (await studio.call('settings.get')) as { libraryDir: string };
  for (const b of made) {
    const { download } = (await studio.call('batches.get', { id: b.id })) as { download: { folder: string } };
    const marks = () => Object.values(soleMarksOnDisk(join(libraryDir, download.folder))).map((i) => i.mark);
    await expect.poll(marks).toContain(b.model === pickedModel ? 'picked' : 'alternative');
  }

  await page.getByTestId('library-review').selectOption('alternative');
  await expect(cells).toHaveCount(1);
  await page.getByTestId('library-review').selectOption('any');
  await expect(cells).toHaveCount(4);

  // In Chinese, from the image's right-click menu.
  await page.getByTestId('language-select').selectOption('zh-CN');
  await cells.nth(0).click({ button: 'right' });
  await page.getByTestId('library-context-menu').getByRole('menuitem', { name: '跨模型对比' }).click();
  await expect(view.getByTestId('across-take')).toHaveCount(2);
  // The marks made before are shown again, in Chinese.
  await expect(view.getByTestId('across-mark')).toHaveText(['备选', '已选中']);
  await screenshot(page, 'compare-across-models-zh-CN');
  await page.keyboard.press('Escape');
  await page.getByTestId('language-select').selectOption('en');
});
