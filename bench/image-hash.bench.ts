// The perceptual hash behind the Library's near-duplicate stacks: its cost per 1K image on one core,
// against sharp's own resize of the same file to a gallery thumbnail (what the studio already pays
// for every image it shows), as the independent reference. Both read the same PNGs from disk.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { renderImage } from '../sandbox/image-render';
import { dHash } from '../src-main/services/library/images/image-hash';
import { median, p95 } from './studio-session';

// One core: libvips single-threaded, one image at a time.
sharp.concurrency(1);
const IMAGES = 40;
const ROUNDS = 3;

const dir = mkdtempSync(join(tmpdir(), 'bench-hash-'));
const files: string[] = [];
for (let i = 0; i < IMAGES; i++) {
  const file = join(dir, `${i}.png`);
  writeFileSync(
    file,
    await renderImage({
      prompt: `A bench vase ${i}`,
      label: `b${i}`,
      variant: '0',
      width: 1024,
      height: 1024,
      mime: 'image/png',
    }),
  );
  files.push(file);
}

async function timeEach(work: (file: string) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++)
    for (const file of files) {
      const t0 = performance.now();
      await work(file);
      times.push(performance.now() - t0);
    }
  return times;
}

// Warm both paths once, so neither pays for loading libvips.
await dHash(files[0]!);
await sharp(files[0]!).resize(256, 256, { fit: 'inside' }).webp({ quality: 78 }).toBuffer();
const hash = await timeEach((f) => dHash(f));
const thumb = await timeEach((f) =>
  sharp(f).resize(256, 256, { fit: 'inside' }).webp({ quality: 78 }).toBuffer(),
);

const figures = {
  dhash_median_ms: +median(hash).toFixed(2),
  dhash_p95_ms: +p95(hash).toFixed(2),
  sharp_thumbnail_median_ms: +median(thumb).toFixed(2),
  sharp_thumbnail_p95_ms: +p95(thumb).toFixed(2),
};
const ratio = +(figures.dhash_median_ms / figures.sharp_thumbnail_median_ms).toFixed(2);
console.log(
  `dHash of a 1024×1024 PNG, one core: median ${figures.dhash_median_ms} ms, p95 ${figures.dhash_p95_ms} ms`,
);
console.log(
  `sharp resize of the same file to a 256 px WebP thumbnail: median ${figures.sharp_thumbnail_median_ms} ms, p95 ${figures.sharp_thumbnail_p95_ms} ms`,
);
console.log(`a hash costs ${ratio}× a thumbnail (${IMAGES} images × ${ROUNDS} rounds)`);
console.log(
  JSON.stringify({
    bench: 'image-hash',
    ...figures,
    hash_per_thumbnail: ratio,
    // The hash decodes the image once, as a thumbnail does, and writes 72 bytes instead of a WebP.
    pass: ratio <= 1.2,
  }),
);
