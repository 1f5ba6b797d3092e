import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { LibraryIndex } from '../services/library/library-index';
import { embedPngText } from '../services/library/png-text';
import { ThumbnailService } from '../services/library/thumbnails';
import { call, startServices, waitUntil } from './studio-fixture';

const services = await startServices();

async function downloadedBatch(prompts: string[]): Promise<string> {
  const draft = {
    id: `lib-${Date.now()}`,
    name: 'Library test',
    model: 'imgvendor-3.1-flash-image',
    items: prompts.map((prompt, i) => ({ customId: `p${i + 1}`, prompt, outputCount: 1, referenceIds: [] })),
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png',
  };
  const { batch } = await call(services, 'batches.submit', { draft });
  const done = await waitUntil(
    () => call(services, 'batches.get', { id: batch.id }),
    (b: any) => b.download.state === 'done',
  );
  return join((await call(services, 'settings.get')).libraryDir, done.download.folder);
}

describe('the library on disk', () => {
  it('opens a library copied from another machine, and searches it in English and Chinese', async () => {
    const folder = await downloadedBatch(['A red fox in the snow', '雪地里的红狐狸', 'A blue whale']);
    const copy = mkdtempSync(join(tmpdir(), 'library-copy-'));
    cpSync(folder, join(copy, 'copied batch'), { recursive: true });
    const index = new LibraryIndex(() => copy);
    const all = index.query();
    expect(all.total).toBe(3);
    expect(all.problems).toEqual([]);
    expect(index.query({ search: 'fox' }).items.map((i) => i.prompt)).toEqual(['A red fox in the snow']);
    expect(index.query({ search: '狐狸' }).items.map((i) => i.prompt)).toEqual(['雪地里的红狐狸']);
    expect(index.query({ search: 'whal' }).total).toBe(1);
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
    const result = new LibraryIndex(() => root).query();
    expect(result.total).toBe(3 + 2);
    expect(result.problems.map((p) => p.folder).sort()).toEqual(['corrupt', 'half', 'no record']);
    expect(result.problems.find((p) => p.folder === 'half')!.message).toMatch(/1 of 3 images are missing/);
  });

  it('keeps marks in review.json, and they survive a re-read and a re-download', async () => {
    const folder = await downloadedBatch(['mark me', 'and me']);
    const batchId = JSON.parse(readFileSync(join(folder, 'batch.json'), 'utf8')).batch.id;
    const { items } = await call(services, 'library.query', { batchId });
    await Promise.all([
      call(services, 'library.mark', { ids: [items[0].id], mark: 'picked' }),
      call(services, 'library.mark', { ids: [items[1].id], stars: 4 }),
      call(services, 'library.mark', { ids: [items[0].id], stars: 2 }),
    ]);
    const review = JSON.parse(readFileSync(join(folder, 'review.json'), 'utf8'));
    expect(review.format).toBe('batch-image-studio.review/1');
    expect(Object.values(review.images)).toEqual(
      expect.arrayContaining([
        { mark: 'picked', stars: 2 },
        { mark: null, stars: 4 },
      ]),
    );
    const fresh = new LibraryIndex(() => join(folder, '..')).query({ batchId, review: 'picked' });
    expect(fresh.items.map((i) => i.stars)).toEqual([2]);

    await services.batches.downloader.enqueue('sandbox', batchId);
    const again = JSON.parse(readFileSync(join(folder, 'review.json'), 'utf8'));
    expect(again).toEqual(review);
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
