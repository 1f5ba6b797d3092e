import { cpSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, test, openScreen } from './studio-fixture';
import { soleMarksOnDisk } from '../src-main/test/helpers/marks-on-disk';

const FOLDERS = 15;
const PER_FOLDER = 200;
const WORDS = ['ceramic mug', '青花瓷杯', 'linen napkin', '木桌', 'lavender sprig', 'glazed vase'];

/**
 * Batch folders as another studio wrote them (batch.json, images/, no catalog), made outside the
 * library: real PNGs of several shapes, hard-linked so 3,000 images cost a few files of disk.
 */
async function foldersElsewhere(): Promise<{ dir: string; names: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'library-elsewhere-'));
  const shapes = [
    [64, 64],
    [96, 54],
    [54, 96],
    [80, 60],
  ] as const;
  const sources = await Promise.all(
    shapes.map(async ([width, height], i) => {
      const file = join(dir, `source-${i}.png`);
      await sharp({
        create: { width, height, channels: 3, background: ['#c85', '#58c', '#8c5', '#c58'][i]! },
      })
        .png()
        .toFile(file);
      return file;
    }),
  );
  const names: string[] = [];
  for (let b = 0; b < FOLDERS; b++) {
    const name = `2026-10-${String(b + 1).padStart(2, '0')} Shared ${b}`;
    names.push(name);
    mkdirSync(join(dir, name, 'images'), { recursive: true });
    const images = Array.from({ length: PER_FOLDER }, (_, i) => {
      const file = `images/row-${String(i + 1).padStart(3, '0')}.png`;
      linkSync(sources[(b + i) % sources.length]!, join(dir, name, file));
      return {
        customId: `s${b}-${i + 1}`,
        file,
        prompt: `Shot ${b}-${i}: ${WORDS[(b + i) % WORDS.length]}`,
        rowIndex: i,
      };
    });
    writeFileSync(
      join(dir, name, 'batch.json'),
      JSON.stringify({
        format: 'batch-image-studio.batch/1',
        batch: {
          id: `imgbatch_shared${b}`,
          task_name: `Shared ${b}`,
          model: 'imgvendor-3.1-flash-image',
          created_at: 1_790_000_000 + b * 3600,
        },
        images,
      }),
    );
  }
  return { dir, names };
}

/** How many of the generated images mention a word, counted as the generator wrote them. */
function mentioning(word: string, fromFolder = 0): string {
  let n = 0;
  for (let b = fromFolder; b < FOLDERS; b++)
    for (let i = 0; i < PER_FOLDER; i++) if (WORDS[(b + i) % WORDS.length]!.includes(word)) n++;
  return n.toLocaleString('en-US');
}

test('3,000 images copied in while the studio runs, culled and searched offline, and a damaged catalog rebuilt', async ({
  page,
  studio,
}) => {
  test.setTimeout(180_000);
  const root = (await studio.call('settings.get')).libraryDir as string;
  const { dir, names } = await foldersElsewhere();
  // Offline from the start: the gateway is unreachable, the library is all on disk.
  const away = await studio.call('profiles.save', {
    name: 'Away',
    baseUrl: 'http://127.0.0.1:9',
    gatewayKey: 'sk-x',
  });
  await studio.call('profiles.activate', { id: away.id });

  await openScreen(page, studio, 'Library');
  await expect(page.getByText(/The library is empty/).first()).toBeVisible();

  // Copied in the file manager while the Library is open: the gallery fills with no reload.
  for (const name of names) cpSync(join(dir, name), join(root, name), { recursive: true });
  const count = page.getByTestId('library-count');
  await expect(count).toContainText('3,000', { timeout: 30_000 });
  const cells = page.getByTestId('library-cell');
  await expect(cells.first()).toBeVisible();
  const firstThumb = cells.first().locator('img');
  await expect
    .poll(() => firstThumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);

  // Search, in English and a two-character Chinese word.
  const search = page.getByTestId('library-search');
  await search.fill('木桌');
  await expect(count).toContainText(`${mentioning('木桌')} of 3,000`);
  await search.fill('lavender');
  await expect(count).toContainText(`${mentioning('lavender')} of 3,000`);
  await search.fill('');
  await expect(count).toContainText('3,000 of 3,000');

  // Cull by keyboard: pick the first, reject the second, three stars on the third.
  const gallery = page.getByTestId('library-gallery');
  await gallery.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('p');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('x');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('3');
  await expect(cells.nth(0)).toHaveAttribute('data-mark', 'picked');
  await expect(cells.nth(1)).toHaveAttribute('data-mark', 'rejected');
  await expect(cells.nth(2)).toHaveAttribute('data-stars', '3');
  const newest = names.at(-1)!;
  await expect.poll(() => Object.keys(soleMarksOnDisk(join(root, newest))).length).toBe(3);

  // A folder deleted in the file manager leaves the gallery.
  rmSync(join(root, names[0]!), { recursive: true });
  await expect(count).toContainText('2,800', { timeout: 30_000 });

  // The catalog (the studio's own, in its data folder, keyed by the library's id) damaged while
  // the studio is closed: it is made again from the folders, marks included.
  const { id } = JSON.parse(readFileSync(join(root, '.studio-library.json'), 'utf8')) as { id: string };
  const catalog = join(studio.dataDir, 'libraries', id, 'catalog.sqlite');
  await studio.restart(() => writeFileSync(catalog, 'damaged '.repeat(2000)));
  await openScreen(page, studio, 'Library');
  await expect(count).toContainText('2,800', { timeout: 30_000 });
  await expect(cells.nth(0)).toHaveAttribute('data-mark', 'picked');
  await expect(cells.nth(2)).toHaveAttribute('data-stars', '3');
  await page.getByTestId('library-review').selectOption('rejected');
  await expect(count).toContainText('1 of 2,800');

  // And deleted outright: the same.
  await studio.restart(() => rmSync(join(studio.dataDir, 'libraries', id), { recursive: true, force: true }));
  await openScreen(page, studio, 'Library');
  await expect(count).toContainText('2,800', { timeout: 30_000 });
  await page.getByTestId('library-search').fill('青花');
  await expect(count).toContainText(`${mentioning('青花', 1)} of 2,800`);
});
