import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A batch folder with its hashes.json, as the studio leaves one once its images are hashed: one
 * image a hash, `run` naming the run the batch was one model of.
 */
export function batchFolder(root: string, name: string, hashes: string[], run?: string): void {
  const dir = join(root, name);
  mkdirSync(join(dir, 'images'), { recursive: true });
  const images = hashes.map((_, i) => {
    writeFileSync(join(dir, 'images', `row-${i + 1}.png`), 'png');
    return { customId: `row-${i + 1}`, file: `images/row-${i + 1}.png`, prompt: `row ${i + 1}`, rowIndex: i };
  });
  const batch = { id: `imgbatch_${name}`, task_name: name, model: name, created_at: 1_790_000_000 };
  writeFileSync(
    join(dir, 'batch.json'),
    JSON.stringify({ batch: { ...batch, metadata: run ? { run_id: run } : null }, images }),
  );
  writeFileSync(
    join(dir, 'hashes.json'),
    JSON.stringify({
      format: 'batch-image-studio.hashes/1',
      images: Object.fromEntries(images.map((image, i) => [image.file, hashes[i]])),
    }),
  );
}

/**
 * A batch folder as the studio writes one: batch.json naming a prompt per image, and the images
 * (each `image`'s bytes: the catalog lists files by batch.json, it does not decode them).
 */
export function promptsFolder(
  root: string,
  name: string,
  prompts: string[],
  image: Buffer | string = 'png',
  createdAt = 1_790_000_000,
): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'images'), { recursive: true });
  const images = prompts.map((prompt, i) => {
    writeFileSync(join(dir, 'images', `row-${i + 1}.png`), image);
    return { customId: `row-${i + 1}`, file: `images/row-${i + 1}.png`, prompt, rowIndex: i };
  });
  writeFileSync(
    join(dir, 'batch.json'),
    JSON.stringify({
      batch: { id: `imgbatch_${name}`, task_name: name, model: 'm', created_at: createdAt },
      images,
    }),
  );
  return dir;
}
