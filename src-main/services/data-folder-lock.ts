import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StudioError } from '../../src-shared/studio-error';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One studio per data folder: two would submit, poll and download the same batches. A lock left by
 * a process that died (a crash, a kill) is taken over.
 */
export function lockDataFolder(dataDir: string): () => void {
  const file = join(dataDir, 'studio.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
        throw new StudioError({
          code: 'STUDIO_ALREADY_RUNNING',
          message: `Another Batch Image Studio (process ${holder}) is using ${dataDir}. Close it first, or start with another data folder.`,
        });
      }
      rmSync(file, { force: true });
    }
  }
  throw new StudioError({ code: 'STUDIO_ALREADY_RUNNING', message: `Could not lock ${dataDir}.` });
}
