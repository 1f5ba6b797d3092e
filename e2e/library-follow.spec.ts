import { batchInLibrary, expect, openScreen, test } from './studio-fixture';

// A team culls while batches keep arriving (a colleague's, through the shared folder, or the
// studio's own downloads): newest first, each new batch comes in above the image being looked at.
// The loupe and the grid's focus stay on that image; a key marks the image on screen.
test.use({ viewport: { width: 1280, height: 800 } });

test('the loupe and the focus stay on their image when a batch arrives above it, and come back to it', async ({
  page,
  studio,
}) => {
  await batchInLibrary(
    studio,
    'follow-a',
    'Follow teapots',
    Array.from({ length: 12 }, (_, n) => `A teapot, variant ${n + 1}`),
  );
  await openScreen(page, studio, 'Library');
  await expect(page.getByTestId('library-count')).toContainText('12 of 12');
  const gallery = page.getByTestId('library-gallery');
  await gallery.focus();
  for (let n = 0; n < 4; n++) await page.keyboard.press('ArrowRight');
  const focused = page.locator('[data-testid="library-cell"].focused');
  await expect(focused).toHaveAttribute('data-index', '4');
  const id = (await focused.getAttribute('data-id'))!;
  await page.keyboard.press('Space');
  const loupe = page.getByTestId('lightbox');
  const prompt = loupe.getByTestId('lightbox-prompt');
  await expect(loupe).toContainText('5 / 12');
  const seen = await prompt.textContent();

  // Six newer images arrive while the loupe is open: the same image stays, now the 11th of 18.
  await batchInLibrary(
    studio,
    'follow-b',
    'Follow kites',
    Array.from({ length: 6 }, (_, n) => `A kite, variant ${n + 1}`),
  );
  await expect(page.getByTestId('library-count')).toContainText('18 of 18');
  await expect(loupe).toContainText('11 / 18');
  await expect(prompt).toHaveText(seen!);

  // P marks the image on screen, and only it (as main has it).
  await loupe.getByTestId('lightbox-auto-advance').uncheck();
  await page.keyboard.press('p');
  await expect
    .poll(async () => {
      const { items } = await studio.call('library.query', { limit: 100 });
      return items.filter((i: { mark: string | null }) => i.mark).map((i: { id: string }) => i.id);
    })
    .toEqual([id]);

  // Back in the grid, the focus is on the same image, in its new place.
  await page.keyboard.press('Escape');
  await expect(loupe).toBeHidden();
  await expect(focused).toHaveAttribute('data-id', id);
  await expect(focused).toHaveAttribute('data-index', '10');

  // The grid alone: another batch above, and the focus follows its image there too.
  await batchInLibrary(studio, 'follow-c', 'Follow lanterns', ['A lantern', 'A paper lantern']);
  await expect(page.getByTestId('library-count')).toContainText('20 of 20');
  await expect(focused).toHaveAttribute('data-index', '12');
  await expect(focused).toHaveAttribute('data-id', id);

  // Away on another screen while a batch arrives, then back: the focus comes back to its image.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Batches' }).click();
  await batchInLibrary(studio, 'follow-d', 'Follow kites again', [
    'A box kite',
    'A delta kite',
    'A sled kite',
  ]);
  await nav.getByRole('link', { name: 'Library' }).click();
  await expect(page.getByTestId('library-count')).toContainText('23 of 23');
  await expect(focused).toHaveAttribute('data-index', '15');
  await expect(focused).toHaveAttribute('data-id', id);
  // And after a reload.
  await batchInLibrary(studio, 'follow-e', 'Follow one more', ['A windsock']);
  await page.reload();
  await expect(page.getByTestId('library-count')).toContainText('24 of 24');
  await expect(focused).toHaveAttribute('data-index', '16');
  await expect(focused).toHaveAttribute('data-id', id);
});
