import { linkSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { LibraryOverview } from '../../src-shared/library-view';
import { testCatalog } from './helpers/test-catalog';

const FOLDERS = 120;
/** Batches of different sizes, as a designer's are: an average per folder would mislead. */
const imagesIn = (b: number) => [50, 400, 120, 230][b % 4]!;
const IMAGES = Array.from({ length: FOLDERS }, (_, b) => imagesIn(b)).reduce((a, b) => a + b, 0);
const WORDS = ['lavender sprig', '青花瓷杯', 'brass lamp'];
const mentions = (b: number, i: number) => WORDS[(b + i) % WORDS.length]!;

/**
 * 120 batch folders, 24,000 images, as another studio wrote them (the images hard links to one
 * tiny PNG). Batch b was written at hour b: the last is the newest, by its time and its batch.json.
 */
async function library(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'library-first-build-'));
  const png = join(root, '.source.png');
  await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c85' } })
    .png()
    .toFile(png);
  for (let b = 0; b < FOLDERS; b++) {
    const dir = join(root, `batch ${String((b * 37) % FOLDERS).padStart(3, '0')} #${b}`);
    mkdirSync(join(dir, 'images'), { recursive: true });
    const images = Array.from({ length: imagesIn(b) }, (_, i) => {
      const file = `images/r${i}.png`;
      linkSync(png, join(dir, file));
      return { customId: `b${b}-${i}`, file, prompt: `Shot ${b}-${i}: ${mentions(b, i)}`, rowIndex: i };
    });
    const created = 1_790_000_000 + b * 3600;
    writeFileSync(
      join(dir, 'batch.json'),
      JSON.stringify({
        format: 'batch-image-studio.batch/1',
        batch: { id: `imgbatch_${b}`, task_name: `Batch ${b}`, model: 'm', created_at: created },
        images,
      }),
    );
    utimesSync(join(dir, 'batch.json'), created, created);
  }
  return root;
}

/** What the Library's count says of an overview: the total, or an estimate while indexing. */
const presentedTotal = (o: LibraryOverview) =>
  o.indexing ? { about: o.indexing.imagesAbout } : { total: o.images };

describe('the first build of a large library', () => {
  it('is usable at once, newest first, and never presents the part indexed as the total', async () => {
    const root = await library();
    const elsewhere = mkdtempSync(join(tmpdir(), 'library-elsewhere-'));
    let libraryRoot = root;
    const catalog = testCatalog(() => libraryRoot);
    const building = catalog.sync();
    const seen: { overview: LibraryOverview; shown: number; newest: string | undefined; found: number }[] =
      [];
    for (;;) {
      const overview = await catalog.overview();
      if (!overview.indexing) break;
      const list = await catalog.query({ limit: 50 });
      const found = (await catalog.query({ search: 'lavender', limit: 50 })).total;
      seen.push({ overview, shown: list.total, newest: list.items[0]?.batchId, found });
      // Halfway, the studio "quits": the library moves away under the catalog, which stops.
      if (overview.images > IMAGES / 2) libraryRoot = elsewhere;
      await new Promise((r) => setTimeout(r, 20));
    }
    await building;
    catalog.close();
    expect(seen.length).toBeGreaterThan(2);
    for (const { overview, shown, newest, found } of seen.filter((s) => s.shown > 0)) {
      // The newest batch is read first, so the first screen is the library's own first screen.
      expect(newest).toBe(`imgbatch_${FOLDERS - 1}`);
      expect(shown).toBeLessThan(IMAGES);
      expect(found).toBeLessThan(IMAGES / 3);
      // The count shows an estimate of the whole (within a tenth), never what is indexed so far.
      const about = overview.indexing!.imagesAbout;
      if (about !== undefined) expect(Math.abs(about - IMAGES)).toBeLessThan(IMAGES / 10);
      expect(presentedTotal(overview)).not.toHaveProperty('total');
    }

    // A restart resumes the build: its very first overview estimates the whole, from the folders indexed.
    const resumed = testCatalog(() => root);
    const first = await resumed.overview();
    expect(first.images).toBeGreaterThan(0);
    expect(first.images).toBeLessThan(IMAGES);
    expect(first.indexing).not.toBeNull();
    expect(Math.abs(first.indexing!.imagesAbout! - IMAGES)).toBeLessThan(IMAGES / 10);
    while ((await resumed.overview()).indexing) await new Promise((r) => setTimeout(r, 20));
    // Done: the exact total, and every search over all of it.
    expect(presentedTotal(await resumed.overview())).toEqual({ total: IMAGES });
    let lavender = 0;
    for (let b = 0; b < FOLDERS; b++)
      for (let i = 0; i < imagesIn(b); i++) if (mentions(b, i) === 'lavender sprig') lavender++;
    expect((await resumed.query({ search: 'lavender' })).total).toBe(lavender);
    resumed.close();
  });
});
