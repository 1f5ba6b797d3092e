// The stacks' two thresholds (src-shared/image-stacks.ts), calibrated: Hamming distances between
// dHashes of pictures that belong together, against the same figure for unrelated pictures, which
// is the reference a threshold has to stay under. Two sources:
// - the sandbox: outputs of `[seed:X]` (near-identical) and `[similar:X]` (similar) prompts;
// - real pictures, when STUDIO_CALIBRATION_PHOTOS lists some (comma-separated paths), each edited as
//   people and pipelines do: recompressed, downscaled, brightened, cropped by 3 %, and a logo added.
import sharp from 'sharp';
import { renderImage } from '../sandbox/image-render';
import { dHash } from '../src-main/services/library/images/image-hash';
import { hammingDistance, STACK_NEAR_IDENTICAL, STACK_SIMILAR } from '../src-shared/image-stacks';

const SEEDS = 8;
const OUTPUTS = 4;

const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const share = (t: number) => (s.length ? +(s.filter((d) => d <= t).length / s.length).toFixed(2) : null);
  return {
    n: s.length,
    min: s[0] ?? null,
    median: s[Math.floor(s.length / 2)] ?? null,
    max: s.at(-1) ?? null,
    // The share a threshold would group.
    withinNear: share(STACK_NEAR_IDENTICAL),
    withinSimilar: share(STACK_SIMILAR),
  };
};
const pairs = (hashes: string[]) =>
  hashes.flatMap((a, i) => hashes.slice(i + 1).map((b) => hammingDistance(a, b)));

async function sandboxKind(kind: 'seed' | 'similar'): Promise<{ within: number[]; firsts: string[] }> {
  const within: number[] = [];
  const firsts: string[] = [];
  for (let s = 0; s < SEEDS; s++) {
    const hashes: string[] = [];
    for (let v = 0; v < OUTPUTS; v++) {
      const png = await renderImage({
        prompt: `[${kind}:calibrate-${s}] a ceramic mug on linen`,
        label: `row-${String(v + 1).padStart(3, '0')}`,
        variant: String(v),
        width: 1024,
        height: 1024,
        mime: 'image/png',
      });
      hashes.push(await dHash(png));
    }
    within.push(...pairs(hashes));
    firsts.push(hashes[0]!);
  }
  return { within, firsts };
}

/** A real picture and the usual edits of it, each hashed. */
async function photoEdits(path: string): Promise<{ original: string; edits: Record<string, number> }> {
  const original = await dHash(path);
  const image = sharp(path);
  const { width = 0, height = 0 } = await image.metadata();
  const logo = await sharp({
    create: {
      width: Math.round(width / 8),
      height: Math.round(height / 12),
      channels: 3,
      background: '#fff',
    },
  })
    .png()
    .toBuffer();
  const edits: Record<string, Buffer> = {
    jpeg60: await sharp(path).jpeg({ quality: 60 }).toBuffer(),
    half: await sharp(path)
      .resize(Math.round(width / 2))
      .toBuffer(),
    brighter: await sharp(path).modulate({ brightness: 1.08 }).toBuffer(),
    crop3: await sharp(path)
      .extract({
        left: Math.round(width * 0.03),
        top: Math.round(height * 0.03),
        width: Math.round(width * 0.94),
        height: Math.round(height * 0.94),
      })
      .toBuffer(),
    logo: await sharp(path)
      .composite([{ input: logo, gravity: 'southeast' }])
      .toBuffer(),
  };
  const distances: Record<string, number> = {};
  for (const [name, bytes] of Object.entries(edits))
    distances[name] = hammingDistance(original, await dHash(bytes));
  return { original, edits: distances };
}

const near = await sandboxKind('seed');
const similar = await sandboxKind('similar');
const unrelatedSandbox = pairs([...near.firsts, ...similar.firsts.slice(0, SEEDS / 2)]);

const photoPaths = (process.env.STUDIO_CALIBRATION_PHOTOS ?? '').split(',').filter(Boolean);
const photos: Awaited<ReturnType<typeof photoEdits>>[] = [];
for (const path of photoPaths) photos.push(await photoEdits(path));
const photoEditDistances = photos.flatMap((p) => Object.values(p.edits));
const unrelatedPhotos = pairs(photos.map((p) => p.original));

const result = {
  thresholds: { near: STACK_NEAR_IDENTICAL, similar: STACK_SIMILAR },
  sandboxNearIdentical: summary(near.within),
  sandboxSimilar: summary(similar.within),
  sandboxUnrelated: summary(unrelatedSandbox),
  photos: photos.length,
  photoEditsByKind: photos.length
    ? Object.fromEntries(
        Object.keys(photos[0]!.edits).map((k) => [k, summary(photos.map((p) => p.edits[k]!))]),
      )
    : null,
  photoEdits: photos.length ? summary(photoEditDistances) : null,
  photoUnrelated: photos.length > 1 ? summary(unrelatedPhotos) : null,
  // The comparison: what should group, against the closest unrelated pair (the reference).
  unrelatedClosest: Math.min(...unrelatedSandbox, ...unrelatedPhotos),
};
console.log(JSON.stringify(result));
