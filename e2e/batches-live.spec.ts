import type { Request } from '@playwright/test';
import { expect, promptsDraft, test, type RunningStudio, openScreen } from './studio-fixture';

// Nothing in the window polls: while batches run, the Batches screen learns everything, its cost
// totals included, from pushed events. Counted at the page, in calls, against the events it got.

const draft = (name: string, prompts: string[]) => promptsDraft(`live-${name}`, name, prompts);

/** Counts the events the studio pushes, on an event stream of its own, as a second window would. */
function countEvents(studio: RunningStudio): { count: (event: string) => number; stop: () => void } {
  const abort = new AbortController();
  const counts = new Map<string, number>();
  void fetch(`${studio.origin}/api/events`, {
    headers: { authorization: `Bearer ${studio.token}` },
    signal: abort.signal,
  })
    .then(async (res) => {
      const decoder = new TextDecoder();
      const reader = res.body!.getReader();
      let carry = '';
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        const lines = (carry + decoder.decode(read.value, { stream: true })).split('\n');
        carry = lines.pop()!;
        for (const line of lines) {
          const event = line.startsWith('event: ') ? line.slice('event: '.length) : undefined;
          if (event) counts.set(event, (counts.get(event) ?? 0) + 1);
        }
      }
    })
    .catch(() => undefined);
  return { count: (event) => counts.get(event) ?? 0, stop: () => abort.abort() };
}

test('while batches run, Batches keeps its costs from events and makes no call per batch update', async ({
  page,
  studio,
}) => {
  await openScreen(page, studio, 'Batches');
  await expect(page.getByText('No batches yet')).toBeVisible();
  await expect(page.getByTestId('costs')).toContainText(
    '0 batches · estimate 0.00 · held 0.00 · actual 0.00',
  );

  // From here on, every call the page makes is recorded, by method.
  const calls: string[] = [];
  const record = (req: Request) => {
    const path = new URL(req.url()).pathname;
    if (path.startsWith('/api/') && path !== '/api/events') calls.push(path.slice('/api/'.length));
  };
  page.on('request', record);
  const stream = countEvents(studio);

  const ids: string[] = [];
  for (const [name, prompts] of [
    ['Mugs', ['a mug', 'a cup', 'a jug']],
    ['Plates', ['a plate', 'a bowl [fail]']],
    ['Vases', ['a vase', 'an urn', 'a pot', 'a jar']],
  ] as const) {
    const { batch } = await studio.call('batches.submit', { draft: draft(name, [...prompts]) });
    ids.push(batch.id);
  }

  // Every batch runs, settles and lands in the library, and the page follows by itself.
  for (const id of ids) {
    await expect(page.getByTestId(`batch-${id}`).getByTestId('batch-download')).toHaveAttribute(
      'data-state',
      'in-library',
      { timeout: 60_000 },
    );
  }
  // The totals line shows the settled money to the last digit, as the method answers it now.
  const costs = await studio.call('batches.costs');
  // One line, one precision: the finest any of its amounts needs (two to four decimals).
  const figures = [costs.totals.estimated, costs.totals.held, costs.totals.actual] as number[];
  const digits = Math.max(2, ...figures.map((a) => a.toFixed(4).replace(/0+$/, '').split('.')[1]!.length));
  const money = new Intl.NumberFormat('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  expect(costs.totals).toMatchObject({ batches: 3, held: 0 });
  expect(costs.totals.actual).toBeGreaterThan(0);
  await expect(page.getByTestId('costs')).toContainText(
    `3 batches · estimate ${money.format(costs.totals.estimated)} · held ${money.format(0)} · actual ${money.format(costs.totals.actual)}`,
  );
  page.off('request', record);
  stream.stop();

  // Many updates were pushed (queued, running, progress, completed, downloading, in the library)...
  expect(stream.count('batch.updated')).toBeGreaterThanOrEqual(ids.length * 4);
  // ...and none of them made the page ask for costs, the list or a batch again.
  const per = (method: string) => calls.filter((m) => m === method).length;
  expect(calls.filter((m) => /^batches\.(costs|list|get|items)$/.test(m))).toEqual([]);
  // What it does ask follows other events, each far rarer than updates: the pending submissions on a
  // submission's phase (sending, created), spending and budget when money moved (`costs.changed`).
  const rarer = {
    'batches.submissions': 'submission.updated',
    'batches.spending': 'costs.changed',
    'batches.budget': 'costs.changed',
  };
  expect(calls.filter((m) => !(m in rarer))).toEqual([]);
  for (const [method, event] of Object.entries(rarer))
    expect(per(method), `${method} per ${event}`).toBeLessThanOrEqual(stream.count(event));
  expect(stream.count('costs.changed')).toBeLessThan(stream.count('batch.updated') / 2);
});

test('a batch removed from the list, from any window, leaves the open Batches screen', async ({
  page,
  studio,
}) => {
  const { batch } = await studio.call('batches.submit', { draft: draft('Removed', ['a bowl']) });
  const kept = await studio.call('batches.submit', { draft: draft('Kept', ['a cup']) });
  await openScreen(page, studio, 'Batches');
  const card = page.getByTestId(`batch-${batch.id}`);
  await expect(card.getByTestId('batch-download')).toHaveText('In the library', { timeout: 60_000 });
  // Removed as another window or a script would: this page hears of it only by the pushed event.
  await studio.call('batches.deleteRecord', { id: batch.id });
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId(`batch-${kept.batch.id}`)).toBeVisible();
});

test.describe('with a slower gateway', () => {
  test.use({ sandboxTimeScale: 15 });

  test('the open batch’s rows follow its items while it runs, not only once it ends', async ({
    page,
    studio,
  }) => {
    const prompts = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
    const { batch } = await studio.call('batches.submit', { draft: draft('Rows', prompts) });
    await openScreen(page, studio, 'Batches');
    await page.getByRole('link', { name: 'Rows' }).click();
    await expect(page.getByTestId('detail-status')).toHaveText(/Queued|Running/);
    // The badge as it read when the first row turned to success: still running.
    const statusAtFirstRow = await page.waitForFunction(
      () =>
        document.querySelector('.item-row.status-success') &&
        document.querySelector('[data-testid="detail-status"]')?.textContent,
      undefined,
      { timeout: 60_000 },
    );
    expect(await statusAtFirstRow.jsonValue()).not.toBe('Completed');
    await expect(page.getByTestId('detail-status')).toHaveText('Completed', { timeout: 60_000 });
    await expect(page.locator('.item-row.status-success')).toHaveCount(prompts.length);
    expect(batch.id).toBeTruthy();
  });
});
