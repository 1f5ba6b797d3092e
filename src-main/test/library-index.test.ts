import { personMarksOnDisk } from './helpers/marks-on-disk';
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { testCatalog } from './helpers/test-catalog';
import { embedPngText } from '../services/library/images/png-text';
import { ThumbnailService } from '../services/library/images/thumbnails';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, submitAndDownload } from './helpers/studio-fixture';

const services = await startServices();

async function downloadedBatch(prompts: string[]): Promise<string> {
  const done = await submitAndDownload(
    services,
    promptsDraft(`lib-${Date.now()}`, 'Library test', prompts, 'p'),
  );
  return join((await call(services, 'settings.get')).libraryDir, done.download.folder);
}

describe('the library on disk', () => {
  it('opens a library copied from another machine, and searches it in English and Chinese', async () => {
    const folder = await downloadedBatch(['A red fox in the snow', '雪地里的红狐狸', 'A blue whale']);
    const copy = mkdtempSync(join(tmpdir(), 'library-copy-'));
    cpSync(folder, join(copy, 'copied batch'), { recursive: true });
    const catalog = testCatalog(() => copy);
    expect((await catalog.query()).total).toBe(3);
    expect((await catalog.overview()).problems).toEqual([]);
    const prompts = async (search: string) => (await catalog.query({ search })).items.map((i) => i.prompt);
    expect(await prompts('fox')).toEqual(['A red fox in the snow']);
    expect(await prompts('狐狸')).toEqual(['雪地里的红狐狸']);
    expect(await prompts('红狐狸')).toEqual(['雪地里的红狐狸']);
    expect(await prompts('whal')).toEqual(['A blue whale']);
    // Under three characters: Latin words by their start, a single Chinese character anywhere.
    expect(await prompts('bl')).toEqual(['A blue whale']);
    expect(await prompts('狐')).toEqual(['雪地里的红狐狸']);
    expect(await prompts('red 雪地')).toEqual([]);
    expect(await prompts('"fox')).toEqual(['A red fox in the snow']);
    catalog.close();
  });

  it('during a first build, says about how many images the library holds, never the part indexed as the total', async () => {
    const folder = await downloadedBatch(['a kettle', 'a teapot', 'a samovar']);
    const root = mkdtempSync(join(tmpdir(), 'library-first-build-'));
    for (let i = 0; i < 120; i++)
      cpSync(folder, join(root, `batch ${String(i).padStart(3, '0')}`), { recursive: true });
    const heard: { done: number; total: number; imagesAbout?: number }[] = [];
    const catalog = testCatalog(
      () => root,
      (change) => change.indexing && heard.push(change.indexing),
    );
    // More folders than a query waits for: it answers at once, while the catalog fills.
    await catalog.query();
    for (let i = 0; i < 600 && (heard.length === 0 || (await catalog.overview()).indexing); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(heard.length).toBeGreaterThan(0);
    for (const step of heard) {
      expect(step.done).toBeLessThan(step.total);
      // Every folder holds three images: the estimate is the whole library from the first folder
      // read on (before it, with nothing indexed, there is nothing to go by and no total is shown).
      if (step.done > 0) expect(step.imagesAbout).toBe(360);
      else expect(step.imagesAbout).toBeUndefined();
    }
    expect((await catalog.overview()).images).toBe(360);
    catalog.close();
  });

  it('while indexing, leaves batches deleted from disk out of the estimated total', async () => {
    const folder = await downloadedBatch(['a loom', 'a spindle', 'a shuttle']);
    const root = mkdtempSync(join(tmpdir(), 'library-deleted-'));
    const batch = (i: number) => join(root, `batch ${String(i).padStart(3, '0')}`);
    const copy = (i: number) => cpSync(folder, batch(i), { recursive: true });
    for (let i = 0; i < 10; i++) copy(i);
    const heard: { done: number; total: number; imagesAbout?: number }[] = [];
    const catalog = testCatalog(
      () => root,
      (change) => change.indexing && heard.push(change.indexing),
    );
    await catalog.sync();
    // Five batches deleted, sixty new ones: enough to be read while the gallery shows an estimate.
    for (let i = 0; i < 5; i++) rmSync(batch(i), { recursive: true });
    for (let i = 10; i < 70; i++) copy(i);
    await catalog.sync();
    expect(heard.length).toBeGreaterThan(0);
    // Every batch holds three images: from the first report on, the estimate is what is on disk.
    for (const step of heard) expect(step.imagesAbout).toBe(65 * 3);
    expect((await catalog.overview()).images).toBe(65 * 3);
    catalog.close();
  });

  it('reports a corrupt or half-copied folder, skips what is missing, and never throws', async () => {
    const folder = await downloadedBatch(['one', 'two', 'three']);
    const root = mkdtempSync(join(tmpdir(), 'library-broken-'));
    cpSync(folder, join(root, 'whole'), { recursive: true });
    cpSync(folder, join(root, 'half'), { recursive: true });
    rmSync(join(root, 'half', 'images', 'p2.png'));
    cpSync(folder, join(root, 'corrupt'), { recursive: true });
    writeFileSync(join(root, 'corrupt', 'batch.json'), '{"batch": {"id": ');
    cpSync(folder, join(root, 'no record'), { recursive: true });
    rmSync(join(root, 'no record', 'batch.json'));
    // Read an hour later: copies that changed a moment ago would still be arriving
    // (library-arriving.test.ts); an hour on, a folder still lacking files is broken.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_000 });
    const catalog = testCatalog(() => root);
    try {
      expect((await catalog.query()).total).toBe(3 + 2);
      const { problems } = await catalog.overview();
      expect(problems.map((p) => p.folder).sort()).toEqual(['corrupt', 'half', 'no record']);
      expect(problems.find((p) => p.folder === 'half')!.message).toMatch(/1 of 3 images are missing/);
      expect(problems.find((p) => p.folder === 'no record')!.reason).toBe('NO_BATCH_FILE');
    } finally {
      vi.useRealTimers();
      catalog.close();
    }
  });

  it("keeps a person's marks in their own file, and they survive a re-read and a re-download", async () => {
    const folder = await downloadedBatch(['mark me', 'and me']);
    const batchId = JSON.parse(readFileSync(join(folder, 'batch.json'), 'utf8')).batch.id;
    const { items } = await call(services, 'library.query', { batchId });
    await Promise.all([
      call(services, 'library.mark', { ids: [items[0].id], mark: 'picked' }),
      call(services, 'library.mark', { ids: [items[1].id], stars: 4 }),
      call(services, 'library.mark', { ids: [items[0].id], stars: 2 }),
    ]);
    const review = personMarksOnDisk(folder, services.settings.get().personId);
    expect(review.format).toBe('batch-image-studio.review/2');
    expect(review.person.name).toBe(services.settings.get().personName);
    expect(Object.values(review.images)).toEqual(
      expect.arrayContaining([
        { mark: 'picked', stars: 2 },
        { mark: null, stars: 4 },
      ]),
    );
    // A second catalog, on the same folders (another person's, as on another machine), reads the
    // marks as the team's: picked by anyone, and by whom.
    const copy = mkdtempSync(join(tmpdir(), 'library-marks-'));
    cpSync(folder, join(copy, 'copied'), { recursive: true });
    const fresh = await testCatalog(() => copy).query({ batchId, review: 'picked', whose: 'anyone' });
    expect(fresh.items.map((i) => i.team?.by)).toEqual([
      [{ name: services.settings.get().personName, me: false, mark: 'picked', stars: 2 }],
    ]);
    expect((await testCatalog(() => copy).query({ batchId, review: 'picked' })).total).toBe(0);

    await services.batches.downloader.enqueue('sandbox', batchId);
    expect(personMarksOnDisk(folder, services.settings.get().personId)).toEqual(review);
  });
});

describe('thumbnails and embedded prompts', () => {
  it('caches thumbnails on disk and makes them again when the image changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thumbs-'));
    const source = join(dir, 'a.png');
    await sharp({ create: { width: 1024, height: 768, channels: 3, background: '#336699' } })
      .png()
      .toFile(source);
    const service = new ThumbnailService(join(dir, 'cache'));
    const first = await service.fileFor(source);
    expect(await service.fileFor(source)).toBe(first);
    expect(await sharp(first).metadata()).toMatchObject({ format: 'webp', width: 256, height: 192 });
    await sharp({ create: { width: 512, height: 512, channels: 3, background: '#993366' } })
      .png()
      .toFile(source);
    utimesSync(source, new Date(), new Date(Date.now() + 5000));
    const second = await service.fileFor(source);
    expect(second).not.toBe(first);
    expect(await sharp(second).metadata()).toMatchObject({ width: 256, height: 256 });
  });

  it('drops thumbnail work nobody waits for any more, and makes the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'thumbs-dropped-'));
    const sources = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const source = join(dir, `s${i}.png`);
        await sharp({ create: { width: 900, height: 600, channels: 3, background: `#${i}${i}6699` } })
          .png()
          .toFile(source);
        return source;
      }),
    );
    const service = new ThumbnailService(join(dir, 'cache'));
    const askers = sources.map(() => new AbortController());
    const asked = sources.map((source, i) => service.fileFor(source, 256, askers[i]!.signal));
    // Scrolled past before their turn: every ask but the first two (already being made) gives up.
    for (const asker of askers.slice(2)) asker.abort();
    // Scrolled back at once: the cell asks again, and gets its thumbnail, not the dropped ask's end.
    const back = service.fileFor(sources[3]!, 256);
    const answers = await Promise.allSettled(asked);
    expect(await back).toMatch(/\.webp$/);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', ...Array(6).fill('rejected')]);
    // Asked again later, a dropped one is made then.
    expect(await service.fileFor(sources[5]!, 256)).toMatch(/\.webp$/);
  });

  it('embeds UTF-8 text chunks that leave the PNG decodable', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const out = embedPngText(png, { prompt: '一只猫 on a mat', parameters: '{"a":1}' });
    expect((await sharp(out).metadata()).width).toBe(8);
    expect(out.includes(Buffer.from('一只猫 on a mat'))).toBe(true);
    const twice = embedPngText(out, { prompt: 'replaced' });
    expect(twice.includes(Buffer.from('一只猫'))).toBe(false);
    expect(twice.includes(Buffer.from('{"a":1}'))).toBe(true);
  });
});
