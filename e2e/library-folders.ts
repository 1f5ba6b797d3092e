import { linkSync, mkdirSync, mkdtempSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

/**
 * Batch folders made beside the library (every image a hard link to one small PNG, so thousands
 * cost a few files of disk) and then moved in, one rename a folder, as a sync tool or a copy from
 * another disk brings a library in. Folder `b` is named `name(b)`, its batch `task(b)`; the last is
 * the newest.
 */
export async function foldersMovedIn(
  root: string,
  {
    folders,
    perFolder,
    name,
    task,
    prompt,
  }: {
    folders: number;
    perFolder: number;
    name: (b: number) => string;
    task: (b: number) => string;
    prompt: (b: number, i: number) => string;
  },
): Promise<void> {
  const staging = mkdtempSync(join(root, '..', 'moved-in-'));
  const png = join(staging, 'source.png');
  await sharp({ create: { width: 40, height: 40, channels: 3, background: '#58c' } })
    .png()
    .toFile(png);
  for (let b = 0; b < folders; b++) {
    const dir = join(staging, name(b));
    mkdirSync(join(dir, 'images'), { recursive: true });
    const images = Array.from({ length: perFolder }, (_, i) => {
      const file = `images/row-${String(i + 1).padStart(3, '0')}.png`;
      linkSync(png, join(dir, file));
      return { customId: `f${b}-${i + 1}`, file, prompt: prompt(b, i), rowIndex: i };
    });
    const created = 1_790_000_000 + b * 3600;
    writeFileSync(
      join(dir, 'batch.json'),
      JSON.stringify({
        format: 'batch-image-studio.batch/1',
        batch: { id: `imgbatch_moved${b}`, task_name: task(b), model: 'm', created_at: created },
        images,
      }),
    );
    utimesSync(join(dir, 'batch.json'), created, created);
  }
  for (let b = 0; b < folders; b++) renameSync(join(staging, name(b)), join(root, name(b)));
}
