import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { dHash } from '../src-main/services/library/images/image-hash';
// The same generator as the tests': the same library on every machine.
import { seededRandom } from '../src-main/test/helpers/seeded-random';

/** What a generated library holds, written beside it: the benches' independent reference. */
export interface BenchLibrary {
  /** Where it is now (the manifest beside it does not say: the cache may move). */
  root: string;
  batches: number;
  images: number;
  /** Every search word the benches type, and how many images its search must find. */
  searches: Record<string, number>;
  /** The newest batch's folder (the gallery's first screen); it never has marks of its own. */
  newestFolder: string;
}

/** The images a gateway answers, by aspect ratio (the sizes image models of this class produce). */
const SIZES: [string, number, number][] = [
  ['1:1', 1024, 1024],
  ['16:9', 1344, 768],
  ['9:16', 768, 1344],
  ['4:3', 1184, 864],
  ['3:4', 864, 1184],
];
const DISTINCT_IMAGES = 50;

/**
 * Prompts as designers write them, English and Chinese mixed. The words the benches search for
 * appear only in prompts (never in a task name or an id), and no two Chinese words ever touch,
 * so a word's expected count is simply how many prompts contain it.
 */
const SUBJECTS = [
  'ceramic mug',
  '青花瓷杯',
  'glazed vase',
  '亚麻餐巾',
  'lavender sprig',
  '木桌',
  'brass lamp',
  '铜台灯',
  'wool blanket',
  '羊毛毯',
  'walnut tray',
];
const SURFACES = ['linen cloth', '木桌', 'slate', '亚麻布', 'marble', '青花瓷盘', 'oak shelf'];
const LIGHTS = ['soft window light', '柔和的晨光', 'studio light', '暖色灯光', 'overcast daylight'];
/** English words of three letters or more, and Chinese words of two characters (the short-word index). */
export const SEARCH_WORDS = { english: ['lavender', 'brass', 'walnut'], chinese: ['青花', '木桌', '台灯'] };

/**
 * Outside the working tree, with a link at bench/.cache/libraries: 110,000 hard links to 3 MB PNGs
 * read as 300 GB to a `grep -r` of the repository, and tools that walk the tree do not follow links.
 */
const cacheDir = process.env.BENCH_LIBRARY_CACHE ?? join(homedir(), '.cache', 'batch-image-studio-bench');

function linkFromBenchCache(): void {
  const link = join(import.meta.dirname, '.cache', 'libraries');
  try {
    lstatSync(link);
  } catch {
    mkdirSync(join(import.meta.dirname, '.cache'), { recursive: true });
    symlinkSync(cacheDir, link);
  }
}

/**
 * Fifty PNGs, ten of each aspect ratio: smooth colour fields with grain, so they weigh what a
 * generated 1K image weighs (1-3 MB) and cost sharp what a real one costs to decode.
 */
async function sourceImages(): Promise<string[]> {
  const dir = join(cacheDir, 'library-sources-v2');
  const names = Array.from({ length: DISTINCT_IMAGES }, (_, i) => {
    const [ratio] = SIZES[i % SIZES.length]!;
    return `source-${String(i).padStart(2, '0')}-${ratio.replace(':', 'x')}.png`;
  });
  if (existsSync(join(dir, '.complete'))) return names.map((n) => join(dir, n));
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < DISTINCT_IMAGES; i++) {
    const [, width, height] = SIZES[i % SIZES.length]!;
    const random = seededRandom(i + 1);
    const hue = [random() * 255, random() * 255, random() * 255];
    const freq = [1 + random() * 4, 1 + random() * 4, 1 + random() * 4];
    const pixels = Buffer.alloc(width * height * 3);
    // Texture a few pixels across, so a 256 px thumbnail keeps detail and weighs what a photo's does.
    const TEXTURE = 6;
    const across = Math.ceil(width / TEXTURE);
    const texture = Float32Array.from({ length: across * Math.ceil(height / TEXTURE) }, () => random() - 0.5);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * 3;
        const detail = texture[Math.floor(y / TEXTURE) * across + Math.floor(x / TEXTURE)]! * 60;
        for (let c = 0; c < 3; c++) {
          const wave = Math.sin((x / width) * freq[c]! * Math.PI + c) * Math.cos((y / height) * freq[c]! * 2);
          const grain = (random() - 0.5) * 18;
          pixels[at + c] = Math.max(0, Math.min(255, hue[c]! * 0.6 + wave * 70 + 50 + detail + grain));
        }
      }
    }
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 6 })
      .toFile(join(dir, names[i]!));
  }
  writeFileSync(join(dir, '.complete'), '');
  return names.map((n) => join(dir, n));
}

/**
 * A library of `batches` batch folders of `perBatch` images, as the studio writes them: batch.json,
 * images/, and in some folders a review.json with marks. Every image file is a hard link to one of
 * fifty real PNGs (several aspect ratios): real files to decode and thumbnail, little disk. Made
 * once and reused. The studio's catalog lives in each run's data folder (catalog.bench.ts keeps
 * one beside the library, `<root>.studio-data`, between runs).
 */
export async function makeLibrary(batches: number, perBatch = 200): Promise<BenchLibrary> {
  mkdirSync(cacheDir, { recursive: true });
  linkFromBenchCache();
  // v4: folders carry hashes.json, as studios before shared libraries wrote it (still read).
  const root = join(cacheDir, `library-v4-${batches}x${perBatch}`);
  const manifestFile = join(root, '.bench-library.json');
  if (existsSync(manifestFile))
    return { ...(JSON.parse(readFileSync(manifestFile, 'utf8')) as Omit<BenchLibrary, 'root'>), root };
  const sources = await sourceImages();
  const hashOf = new Map<string, string>();
  for (const source of sources) hashOf.set(source, await dHash(source));
  const building = `${root}.tmp`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const words = [...SEARCH_WORDS.english, ...SEARCH_WORDS.chinese];
  const searches: Record<string, number> = Object.fromEntries(words.map((w) => [w, 0]));
  const random = seededRandom(batches * 7919 + perBatch);
  const folderOf = (b: number, id: string) =>
    `2026-${String((b % 12) + 1).padStart(2, '0')}-${String((b % 28) + 1).padStart(2, '0')} Bench ${b} ${id}`;
  for (let b = 0; b < batches; b++) {
    const id = `imgbatch_bench${String(b).padStart(4, '0')}`;
    const folder = join(building, folderOf(b, id));
    mkdirSync(join(folder, 'images'), { recursive: true });
    const review: Record<string, { mark: 'picked' | 'rejected' | null; stars: number }> = {};
    const hashes: Record<string, string> = {};
    const images = Array.from({ length: perBatch }, (_, i) => {
      const customId = `b${String(b).padStart(4, '0')}-r${String(i + 1).padStart(3, '0')}`;
      const file = `images/${customId}.png`;
      const source = sources[Math.floor(random() * sources.length)]!;
      linkSync(source, join(folder, file));
      hashes[file] = hashOf.get(source)!;
      const subject = SUBJECTS[Math.floor(random() * SUBJECTS.length)]!;
      const surface = SURFACES[Math.floor(random() * SURFACES.length)]!;
      const light = LIGHTS[Math.floor(random() * LIGHTS.length)]!;
      const prompt = `Product shot ${b}-${i + 1}: ${subject} on ${surface}, ${light}`;
      for (const w of words) if (prompt.toLowerCase().includes(w)) searches[w]!++;
      // A designer culls some batches: every seventh has marks, never the newest (the benches mark there).
      if (b % 7 === 3 && b !== batches - 1 && random() < 0.3)
        review[file] = { mark: random() < 0.6 ? 'picked' : 'rejected', stars: Math.floor(random() * 6) };
      return { customId, imageIndex: 0, file, mime: 'image/png', bytes: 0, rowIndex: i, prompt };
    });
    writeFileSync(
      join(folder, 'batch.json'),
      JSON.stringify(
        {
          format: 'batch-image-studio.batch/1',
          batch: {
            id,
            task_name: `Bench ${b}`,
            model: b % 2 ? 'imgvendor-3-pro-image' : 'imgvendor-3.1-flash-image',
            // One batch an hour, the newest last.
            created_at: 1_780_000_000 + b * 3600,
            status: 'completed',
          },
          images,
          failures: [],
          draft: null,
        },
        null,
        2,
      ),
    );
    writeFileSync(
      join(folder, 'hashes.json'),
      JSON.stringify({ format: 'batch-image-studio.hashes/1', images: hashes }),
    );
    if (Object.keys(review).length)
      writeFileSync(
        join(folder, 'review.json'),
        JSON.stringify({ format: 'batch-image-studio.review/1', images: review }, null, 2),
      );
  }
  const manifest: Omit<BenchLibrary, 'root'> = {
    batches,
    images: batches * perBatch,
    searches,
    newestFolder: folderOf(batches - 1, `imgbatch_bench${String(batches - 1).padStart(4, '0')}`),
  };
  writeFileSync(join(building, '.bench-library.json'), JSON.stringify(manifest, null, 2));
  renameSync(building, root);
  return { ...manifest, root };
}
