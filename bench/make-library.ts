import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchZip } from './make-batch-zip';

/**
 * A library of 10,000 images, 50 batches of 200, as the studio writes them. The 200 distinct 1K
 * PNGs of one sandbox batch are hard-linked into every folder: real files, little disk.
 */
export async function makeLibrary(batches = 50, perBatch = 200): Promise<string> {
  const root = join(import.meta.dirname, '.cache', `library-${batches}x${perBatch}`);
  if (existsSync(join(root, '.complete'))) return root;
  const { file } = await batchZip(perBatch);
  const source = join(import.meta.dirname, '.cache', `images-${perBatch}`);
  if (!existsSync(source)) {
    execFileSync('unzip', ['-q', '-o', file, '-d', `${source}.tmp`]);
    renameSync(`${source}.tmp`, source);
  }
  const images = readdirSync(join(source, 'images')).sort();
  const words = [
    'ceramic mug',
    'glazed vase',
    'linen napkin',
    'oak table',
    '青花瓷杯',
    '亚麻布',
    'lavender sprig',
    '木桌',
  ];
  mkdirSync(root, { recursive: true });
  for (let b = 0; b < batches; b++) {
    const id = `imgbatch_bench${String(b).padStart(4, '0')}`;
    const created = 1_790_000_000 + b * 3600;
    const folder = join(root, `2026-10-${String((b % 28) + 1).padStart(2, '0')} Bench ${b} ${id}`);
    mkdirSync(join(folder, 'images'), { recursive: true });
    const records = images.map((name, i) => {
      const target = join(folder, 'images', name);
      if (!existsSync(target)) linkSync(join(source, 'images', name), target);
      const prompt = `Product shot ${b}-${i}: ${words[(b + i) % words.length]} on ${words[(b * 3 + i) % words.length]}, soft window light`;
      return {
        customId: name.replace(/\.png$/, ''),
        imageIndex: 0,
        file: `images/${name}`,
        mime: 'image/png',
        bytes: 0,
        rowIndex: i,
        prompt,
      };
    });
    writeFileSync(
      join(folder, 'batch.json'),
      JSON.stringify({
        format: 'batch-image-studio.batch/1',
        batch: {
          id,
          task_name: `Bench ${b}`,
          model: b % 2 ? 'imgvendor-3-pro-image' : 'imgvendor-3.1-flash-image',
          created_at: created,
          status: 'completed',
        },
        images: records,
        failures: [],
        draft: null,
      }),
    );
  }
  writeFileSync(join(root, '.complete'), '');
  return root;
}
